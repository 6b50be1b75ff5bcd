package com.chatreview.chatui;

import com.chatreview.chat.ChatId;
import com.chatreview.chatui.ChatUiErrors.EmbedTokenExpired;
import com.chatreview.chatui.ChatUiErrors.EmbedTokenInvalid;
import com.chatreview.database.Sql;
import com.chatreview.sealing.Sealer;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.Base64;
import java.util.UUID;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * Signed, expiring embed tokens bound to a tenant and a chat. A token is {@code base64url(tenant id, chat id,
 * expiry in epoch seconds)} {@code .} {@code base64url(HMAC-SHA256)} of that; the key is one random 256-bit secret
 * in the database ({@code chat_ui_signing_keys}, sealed with the operator's key), made by the first node that needs
 * it and read by every other, so a
 * token minted on one node holds on all of them. Nothing about a token is stored: it is checked, not looked up.
 */
@Component
class EmbedTokens {

    private static final String ALGORITHM = "HmacSHA256";
    private static final byte[] CONTEXT = "chat-ui-embed-token.v1.".getBytes(StandardCharsets.US_ASCII);
    private static final int PAYLOAD_BYTES = 16 + 16 + 8;
    private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();
    private static final Base64.Decoder DECODER = Base64.getUrlDecoder();

    /** The signing key's length; a sealed one is longer by the seal's nonce and tag. */
    private static final int KEY_BYTES = 32;

    private final JdbcClient jdbc;
    private final Sealer sealer;
    private volatile @Nullable SecretKeySpec key;

    EmbedTokens(JdbcClient jdbc, Sealer sealer) {
        this.jdbc = jdbc;
        this.sealer = sealer;
    }

    EmbedToken mint(UUID tenantId, ChatId chatId, Instant expiresAt) {
        ByteBuffer payload = ByteBuffer.allocate(PAYLOAD_BYTES);
        payload.putLong(tenantId.getMostSignificantBits()).putLong(tenantId.getLeastSignificantBits());
        payload.putLong(chatId.value().getMostSignificantBits())
                .putLong(chatId.value().getLeastSignificantBits());
        payload.putLong(expiresAt.getEpochSecond());
        String encoded = ENCODER.encodeToString(payload.array());
        return new EmbedToken(
                encoded + "." + ENCODER.encodeToString(sign(encoded)),
                Instant.ofEpochSecond(expiresAt.getEpochSecond()));
    }

    /**
     * Whether the token was signed here for this chat and has not expired: checked with no look-up (the tenant, which
     * the token names too, is checked against the chat's once the chat is found). An address past its failure budget
     * is still heard with such a token: it is no guess.
     */
    boolean vouchesFor(@Nullable String token, ChatId chatId, Instant now) {
        if (token == null) {
            return false;
        }
        try {
            Signed signed = signed(token.strip());
            return signed.chat().equals(chatId) && now.isBefore(signed.expiresAt());
        } catch (EmbedTokenInvalid refused) {
            return false;
        }
    }

    /**
     * Checks that the token was signed here, names this tenant and chat, and has not expired.
     *
     * @return until when it is good
     * @throws EmbedTokenInvalid when it is malformed, forged, or for another chat
     * @throws EmbedTokenExpired when it was good until a moment now past
     */
    Instant verify(String token, UUID tenantId, ChatId chatId, Instant now) {
        Signed signed = signed(token);
        if (!signed.tenant().equals(tenantId) || !signed.chat().equals(chatId)) {
            throw new EmbedTokenInvalid("The embed token was minted for another chat");
        }
        if (!now.isBefore(signed.expiresAt())) {
            throw new EmbedTokenExpired(signed.expiresAt());
        }
        return signed.expiresAt();
    }

    /** What a token this service signed names. */
    private record Signed(UUID tenant, ChatId chat, Instant expiresAt) {}

    /**
     * The token's fields, once its signature is this service's.
     *
     * @throws EmbedTokenInvalid when it is malformed or forged
     */
    private Signed signed(@Nullable String token) {
        int dot = token == null ? -1 : token.indexOf('.');
        if (token == null || dot < 1 || token.length() > 200) {
            throw new EmbedTokenInvalid("The embed token is malformed");
        }
        String encoded = token.substring(0, dot);
        byte[] payload;
        byte[] signature;
        try {
            payload = DECODER.decode(encoded);
            signature = DECODER.decode(token.substring(dot + 1));
        } catch (IllegalArgumentException e) {
            throw new EmbedTokenInvalid("The embed token is malformed");
        }
        if (payload.length != PAYLOAD_BYTES || !MessageDigest.isEqual(signature, sign(encoded))) {
            throw new EmbedTokenInvalid("The embed token was not signed by this service");
        }
        ByteBuffer fields = ByteBuffer.wrap(payload);
        return new Signed(
                new UUID(fields.getLong(), fields.getLong()),
                ChatId.of(new UUID(fields.getLong(), fields.getLong())),
                Instant.ofEpochSecond(fields.getLong()));
    }

    private byte[] sign(String encodedPayload) {
        try {
            Mac mac = Mac.getInstance(ALGORITHM);
            mac.init(key());
            mac.update(CONTEXT);
            return mac.doFinal(encodedPayload.getBytes(StandardCharsets.US_ASCII));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HMAC-SHA256 is not available", e);
        }
    }

    /**
     * The shared key: created once for the whole cluster (the first insert wins), stored sealed with the operator's
     * key (a database dump alone cannot mint a token), then kept in memory. A key stored in the clear by an earlier
     * version is sealed in place the first time it is read.
     */
    private SecretKeySpec key() {
        SecretKeySpec known = key;
        if (known == null) {
            byte[] candidate = new byte[KEY_BYTES];
            new SecureRandom().nextBytes(candidate);
            jdbc.sql("INSERT INTO chat_ui_signing_keys (id, secret, created_at) VALUES (1, :secret, :now)"
                            + " ON CONFLICT (id) DO NOTHING")
                    .param("secret", sealer.seal(candidate))
                    .param("now", Sql.at(Instant.now()))
                    .update();
            byte[] stored = jdbc.sql("SELECT secret FROM chat_ui_signing_keys WHERE id = 1")
                    .query(byte[].class)
                    .single();
            byte[] secret;
            if (stored.length == KEY_BYTES) {
                secret = stored;
                jdbc.sql("UPDATE chat_ui_signing_keys SET secret = :sealed WHERE id = 1 AND secret = :clear")
                        .param("sealed", sealer.seal(secret))
                        .param("clear", stored)
                        .update();
            } else {
                secret = sealer.open(stored);
            }
            known = new SecretKeySpec(secret, ALGORITHM);
            key = known;
        }
        return known;
    }
}
