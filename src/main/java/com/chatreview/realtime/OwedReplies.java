package com.chatreview.realtime;

/**
 * The replies the service owes to questions it acknowledged. In a cluster each is held by the node answering it
 * while that node lives; when it dies, another node takes the reply over ({@link ReplyTakeovers}). On a single node
 * there is nobody to take over: it owes nothing to anyone but itself.
 */
interface OwedReplies {

    /** The question is stored and about to be acknowledged: this node answers it. */
    void owe(OwedReply reply);

    /** The reply is stored, or the chat was told why there is none. */
    void paid(OwedReply reply);

    /** Whether another node took the reply over (this node's hold on it lapsed): this node stops answering it. */
    boolean takenOver(OwedReply reply);

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
    };
}
