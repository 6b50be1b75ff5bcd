package com.chatreview.privacy;

import com.chatreview.tenancy.TenantId;

/**
 * One part of a user's erasure ({@code DELETE /api/v1/users/{user_id}}), done by the module that owns what it
 * erases. The erasure runs the parts in their {@code @Order}, as a durable job: after a crash it runs them all again,
 * so a part erases what is left and finds nothing the second time.
 *
 * <p>A part erases one unit at a time (a chat with its messages, a submission with its files and review chat), each
 * in one transaction that also counts it ({@link ErasureTally}): a unit is gone, and counted, or neither. A part that
 * cannot erase a unit now (a reply still being written into the chat) throws; the job tries again a little later.
 */
public interface UserDataEraser {

    void erase(TenantId tenantId, String userId, ErasureTally tally);

    /**
     * Whether this part finds anything of the user that no export section shows (an LMS learner who never handed in,
     * a teacher's messages in students' chats): the erasure of a user known only from it is no 404.
     */
    default boolean holdsDataOf(TenantId tenantId, String userId) {
        return false;
    }
}
