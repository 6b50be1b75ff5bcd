package com.chatreview.privacy;

import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * The counts of one erasure, added to in the transaction of the unit erased (the caller's), so that after a crash
 * they still say exactly what is gone. Also names what an erasure leaves in the place of a user id it must keep.
 */
public final class ErasureTally {

    private final JdbcClient jdbc;
    private final UUID erasureId;
    private final String userIdHash;

    ErasureTally(JdbcClient jdbc, UUID erasureId, String userIdHash) {
        this.jdbc = jdbc;
        this.erasureId = erasureId;
        this.userIdHash = userIdHash;
    }

    /** Adds to the counts, in the transaction under way (the one that erased them). */
    public void erased(int chats, int messages, int submissions, int files) {
        jdbc.sql("""
                        UPDATE erasures SET chats = chats + :chats, messages = messages + :messages,
                                            submissions = submissions + :submissions, files = files + :files
                        WHERE id = :id""")
                .param("chats", chats)
                .param("messages", messages)
                .param("submissions", submissions)
                .param("files", files)
                .param("id", erasureId)
                .update();
    }

    /** What stands in for the user id in rows kept for the tenant's totals: {@code erased:} and the id's hash. */
    public String pseudonym() {
        return "erased:" + userIdHash;
    }
}
