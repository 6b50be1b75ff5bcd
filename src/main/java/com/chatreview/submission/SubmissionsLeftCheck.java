package com.chatreview.submission;

import com.chatreview.privacy.ErasureTally;
import com.chatreview.privacy.UserDataEraser;
import com.chatreview.tenancy.TenantId;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;

/**
 * Just before the user goes (the last part of an erasure): a submission uploaded for the user while the erasure ran,
 * after its submissions' part, makes the erasure fail this run and run again, which erases it. Chats need no such
 * check: the user cannot go while a chat of theirs is left (a foreign key), submissions have none.
 */
@Component
@Order(Integer.MAX_VALUE - 1)
class SubmissionsLeftCheck implements UserDataEraser {

    private final SubmissionManagement submissions;

    SubmissionsLeftCheck(SubmissionManagement submissions) {
        this.submissions = submissions;
    }

    @Override
    public void erase(TenantId tenantId, String userId, ErasureTally tally) {
        if (submissions.hasSubmissionsOf(tenantId, userId)) {
            throw new IllegalStateException(
                    "A submission of the user was uploaded while the erasure ran; the erasure runs again");
        }
    }
}
