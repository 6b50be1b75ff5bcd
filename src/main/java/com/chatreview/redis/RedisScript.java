package com.chatreview.redis;

import io.lettuce.core.RedisNoScriptException;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.sync.RedisCommands;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * A Lua script run by its SHA-1 ({@code EVALSHA}), so that a hot path sends the script's text only once per Redis
 * server: after a restart (or {@code SCRIPT FLUSH}) the first call finds it missing and sends it whole.
 */
public final class RedisScript {

    private final String text;
    private final String sha1;
    private final ScriptOutputType output;

    public RedisScript(String text, ScriptOutputType output) {
        this.text = text;
        this.sha1 = sha1(text);
        this.output = output;
    }

    public <T> T run(RedisCommands<String, String> commands, String[] keys, String... args) {
        try {
            return commands.evalsha(sha1, output, keys, args);
        } catch (RedisNoScriptException missing) {
            return commands.eval(text, output, keys, args);
        }
    }

    private static String sha1(String text) {
        try {
            return HexFormat.of()
                    .formatHex(MessageDigest.getInstance("SHA-1").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-1", e);
        }
    }
}
