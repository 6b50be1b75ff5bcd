package com.chatreview.moderation;

import com.chatreview.privacy.ErasureTally;
import com.chatreview.privacy.UserDataEraser;
import com.chatreview.tenancy.TenantId;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;

/**
 * The moderation module's part of a user's erasure: the flags of their messages (those of their own chats go with
 * the chats too; these are the rest, in other users' chats).
 */
@Component
@Order(35)
class FlagsDataEraser implements UserDataEraser {

    private final SafetyFlags flags;

    FlagsDataEraser(SafetyFlags flags) {
        this.flags = flags;
    }

    @Override
    public boolean holdsDataOf(TenantId tenantId, String userId) {
        return flags.holdsFlagsOf(tenantId, userId);
    }

    @Override
    public void erase(TenantId tenantId, String userId, ErasureTally tally) {
        flags.erase(tenantId, userId);
    }
}
