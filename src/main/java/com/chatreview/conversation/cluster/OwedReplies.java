package com.chatreview.conversation.cluster;

import com.chatreview.conversation.ReplyTakeovers;

/**
 * The replies the service owes to questions it acknowledged. In a cluster each is held by the node answering it
 * while that node lives; when it dies, another node takes the reply over ({@link ReplyTakeovers}). On a single node
 * there is nobody to take over: it owes nothing to anyone but itself.
 */
public interface OwedReplies {

    /** The question is stored and about to be acknowledged: this node answers it. */
    void owe(OwedReply reply);

    /** The reply is stored, or the chat was told why there is none. */
    void paid(OwedReply reply);

    /** Whether another node took the reply over (this node's hold on it lapsed): this node stops answering it. */
    boolean takenOver(OwedReply reply);

    /** Whether another node answers this node's replies when it stops: false on a single node. */
    boolean othersTakeOver();

    /**
     * This node is stopping with replies unfinished: another node takes each over at once, and this node stops
     * answering them.
     */
    void handOver();

    /** Nothing is owed across nodes: the single-node default. */
    OwedReplies NONE = new OwedReplies() {
        @Override
        public void owe(OwedReply reply) {}

        @Override
        public void paid(OwedReply reply) {}

        @Override
        public boolean takenOver(OwedReply reply) {
            return false;
        }

        @Override
        public boolean othersTakeOver() {
            return false;
        }

        @Override
        public void handOver() {}
    };
}
