package com.chatreview.privacy;

import com.chatreview.kernel.ServiceError;

/** The failures of the privacy module, each a fact. */
public final class PrivacyErrors {

    private PrivacyErrors() {}

    /** The tenant holds nothing of this user: never seen, or erased. */
    public static final class UserNotFound extends ServiceError {
        public UserNotFound(String userId) {
            super(
                    Code.NOT_FOUND,
                    "The tenant has no user '" + userId + "'",
                    "Use the user_id the user's chats or submissions were made with (submissions: their studentId);"
                            + " an erased user has nothing left to export.");
        }
    }

    public static final class ErasureNotFound extends ServiceError {
        public ErasureNotFound(Object erasureId) {
            super(
                    Code.NOT_FOUND,
                    "No erasure with id '" + erasureId + "'",
                    "Use the erasure_id that DELETE /api/v1/users/{user_id} answered, with the same tenant's key.");
        }
    }
}
