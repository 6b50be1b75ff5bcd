package com.chatreview.tenancy;

import java.util.HashSet;
import java.util.HexFormat;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * The hashes of every active key, in memory: what lets the failure budget refuse guesses without refusing valid
 * keys (docs/api.md, Rate limits). An address past its budget is heard only with a key found here, which costs no query; the
 * key is then checked as any other (a key revoked since fails, and counts). Read from the database at start and
 * every {@code tenancy.known-keys-refresh}; a key issued on this node is known at once.
 */
@Component
class KnownKeys implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(KnownKeys.class);

    private final ApiKeys keys;
    private final ScheduledExecutorService refresher = Executors.newSingleThreadScheduledExecutor(
            Thread.ofVirtual().name("known-keys").factory());
    private volatile Set<String> hashes = Set.of();

    KnownKeys(ApiKeys keys, TenancySettings settings) {
        this.keys = keys;
        long every = settings.knownKeysRefresh().toMillis();
        refresher.scheduleWithFixedDelay(this::refresh, 0, every, TimeUnit.MILLISECONDS);
    }

    boolean knows(String apiKey) {
        return hashes.contains(hex(apiKey));
    }

    /** A key issued on this node: known before the next read. */
    synchronized void issued(String apiKey) {
        Set<String> more = new HashSet<>(hashes);
        more.add(hex(apiKey));
        hashes = Set.copyOf(more);
    }

    void refresh() {
        try {
            Set<String> read = new HashSet<>();
            keys.activeHashes().forEach(hash -> read.add(HexFormat.of().formatHex(hash)));
            synchronized (this) {
                hashes = Set.copyOf(read);
            }
        } catch (RuntimeException e) {
            // an outage: the keys known before stay known
            log.debug("The active keys could not be read: {}", e.toString());
        }
    }

    private static String hex(String apiKey) {
        return HexFormat.of().formatHex(ApiKeys.hash(apiKey));
    }

    @Override
    public void close() {
        refresher.shutdownNow();
    }
}
