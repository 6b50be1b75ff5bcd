package com.chatreview.tenancy;

import java.util.UUID;
import java.util.concurrent.CompletableFuture;

/**
 * How a revoked key stops working on every node at once. On one node the revocation itself is enough (the node's
 * caches forget the key and {@link ApiKeyRevoked} closes what it holds open); a cluster also tells the other nodes,
 * and a node asks whether a key it trusts from its cache was revoked elsewhere meanwhile.
 */
interface KeyRevocations {

    /** Tells every other node of the cluster; they forget the key and close what it holds open. */
    void announce(ApiKeyRevoked revoked);

    /** Whether the key was revoked on any node since this node last checked it in the database. */
    CompletableFuture<Boolean> revoked(UUID apiKeyId);

    /** A single node: nothing to tell, nothing revoked elsewhere. */
    final class SingleNode implements KeyRevocations {
        @Override
        public void announce(ApiKeyRevoked revoked) {}

        @Override
        public CompletableFuture<Boolean> revoked(UUID apiKeyId) {
            return CompletableFuture.completedFuture(false);
        }
    }
}
