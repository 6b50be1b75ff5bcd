package com.chatreview.privacy;

import com.chatreview.tenancy.TenantId;
import java.time.Instant;

/**
 * One part of the daily retention run, done by the module that owns what it erases: what of the tenant is older than
 * its {@link Retention} allows at {@code now}, a unit (a chat, a submission) per transaction, as a user's erasure
 * erases it. A unit that cannot go now (a reply being written into the chat) is left for the next run.
 */
public interface ExpiredDataEraser {

    /** @return how many units it erased */
    int eraseExpired(TenantId tenantId, Retention retention, Instant now);
}
