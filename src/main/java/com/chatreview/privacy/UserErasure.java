package com.chatreview.privacy;

import com.chatreview.kernel.Sha256;
import com.chatreview.privacy.PrivacyErrors.ErasureNotFound;
import com.chatreview.privacy.PrivacyErrors.UserNotFound;
import com.chatreview.tenancy.TenantId;
import java.time.Clock;
import java.util.HexFormat;
import java.util.List;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * A user's erasure: recorded and scheduled as a durable job in one transaction, then done by every
 * {@link UserDataEraser} in their order, on whichever node picks the job (again after a crash, until it is done).
 */
@Service
public class UserErasure {

    private static final Logger log = LoggerFactory.getLogger(UserErasure.class);

    private final Erasures erasures;
    private final UserDataExport export;
    private final List<UserDataEraser> erasers;
    private final ErasureScheduler scheduler;
    private final TransactionTemplate transaction;
    private final JdbcClient jdbc;
    private final Clock clock;

    UserErasure(
            Erasures erasures,
            UserDataExport export,
            List<UserDataEraser> erasers,
            ErasureScheduler scheduler,
            TransactionTemplate transaction,
            JdbcClient jdbc,
            Clock clock) {
        this.erasures = erasures;
        this.export = export;
        this.erasers = List.copyOf(erasers);
        this.scheduler = scheduler;
        this.transaction = transaction;
        this.jdbc = jdbc;
        this.clock = clock;
    }

    /** The lowercase hex SHA-256 of the user id: what an erasure keeps of the user. */
    public static String hash(String userId) {
        return HexFormat.of().formatHex(Sha256.of(userId));
    }

    /**
     * Starts erasing the user, or answers the erasure of the user already running; 404 for a user the tenant does not
     * have (never seen, or erased before): one that no export section and no part of the erasure finds.
     */
    public Erasure start(TenantId tenantId, String userId) {
        String hash = hash(userId);
        var running = erasures.running(tenantId, hash);
        if (running.isPresent()) {
            return running.get();
        }
        if (!export.holdsDataOf(tenantId, userId)
                && erasers.stream().noneMatch(eraser -> eraser.holdsDataOf(tenantId, userId))) {
            throw new UserNotFound(userId);
        }
        UUID id = UUID.randomUUID();
        try {
            transaction.executeWithoutResult(status -> {
                erasures.insert(tenantId, id, hash, clock.instant());
                scheduler.schedule(id, userId);
            });
        } catch (DuplicateKeyException concurrent) {
            // another request started the same erasure a moment ago
            return erasures.running(tenantId, hash).orElseThrow(() -> concurrent);
        }
        return erasures.find(tenantId, id).orElseThrow();
    }

    public Erasure status(TenantId tenantId, UUID erasureId) {
        return erasures.find(tenantId, erasureId).orElseThrow(() -> new ErasureNotFound(erasureId));
    }

    /** The job: every part, then done. Throws when a part could not finish; the job runs again later. */
    void run(UUID erasureId, String userId) {
        var tenant = erasures.tenantOf(erasureId);
        var hash = erasures.hashOf(erasureId);
        if (tenant.isEmpty() || hash.isEmpty()) {
            return; // the tenant was deleted, and its erasures with it
        }
        ErasureTally tally = new ErasureTally(jdbc, erasureId, hash.get());
        for (UserDataEraser eraser : erasers) {
            eraser.erase(tenant.get(), userId, tally);
        }
        erasures.done(erasureId, clock.instant());
        log.info("Erasure {} of tenant {} is done", erasureId, tenant.get());
    }
}
