package com.chatreview.realtime;

import com.chatreview.realtime.ErasedUserConnections.ErasedUser;

/**
 * Tells the other nodes of a cluster to close the connections of a user being erased. Alone, a node has no one to
 * tell.
 */
interface ErasedUserAnnouncements {

    void announce(ErasedUser erased);

    final class SingleNode implements ErasedUserAnnouncements {
        @Override
        public void announce(ErasedUser erased) {}
    }
}
