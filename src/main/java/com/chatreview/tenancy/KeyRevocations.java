package com.chatreview.tenancy;

import java.util.UUID;

/**
 * How a revoked key stops working on every node at once. On one node the revocation itself is enough (the node's
 * caches forget the key and {@link ApiKeyRevoked} closes what it holds open); a cluster also tells the other nodes,
 * and a node asks whether a key it trusts from its cache was revoked elsewhere meanwhile (a REST request asks along
 * with its quota: {@link com.chatreview.ratelimit.RequestQuotas#restRequest(String, UUID, UUID)}).
 */
interface KeyRevocations {

    /** Tells every other node of the cluster; they forget the key and close what it holds open. */
    void announce(ApiKeyRevoked revoked);

    /** Whether the key was revoked on any node since this node last checked it in the database. */
    boolean revoked(UUID apiKeyId);

    /** A single node: nothing to tell, nothing revoked elsewhere. */
    final class SingleNode implements KeyRevocations {
        @Override
        public void announce(ApiKeyRevoked revoked) {}

        @Override
        public boolean revoked(UUID apiKeyId) {
            return false;
        }
    }
}
