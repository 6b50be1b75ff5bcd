package com.chatreview.database;

import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/** Work that must see what the current transaction wrote: a worker woken to send it, say. */
public final class AfterCommit {

    private AfterCommit() {}

    /** Runs the action once the current transaction commits (not at all if it rolls back), or at once outside one. */
    public static void run(Runnable action) {
        if (!TransactionSynchronizationManager.isSynchronizationActive()) {
            action.run();
            return;
        }
        TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
            @Override
            public void afterCommit() {
                action.run();
            }
        });
    }
}
