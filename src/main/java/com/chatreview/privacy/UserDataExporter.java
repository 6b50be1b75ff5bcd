package com.chatreview.privacy;

import com.chatreview.tenancy.TenantId;
import java.util.Set;
import tools.jackson.core.JsonGenerator;

/**
 * One section of a user's data export ({@code GET /api/v1/users/{user_id}/export}), written by the module that owns
 * the tables it reads, in the JSON of that module's endpoints. The export is the sections in their {@code @Order},
 * each a field of one JSON object.
 *
 * <p>A section streams: it reads its rows a batch at a time and writes each before reading the next, so that a user
 * with any number of messages exports in the same memory, and it holds no database connection while it writes (a
 * slow reader must not keep a connection from everyone else).
 */
public interface UserDataExporter {

    /** The field of the export this section writes. */
    String section();

    /** The tables whose rows of the user this section exports (a test checks that together they are all). */
    Set<String> tables();

    /** Whether the tenant holds anything of this user in these tables: the export is 404 when no section does. */
    boolean holdsDataOf(TenantId tenantId, String userId);

    /** Writes exactly one JSON value: the section's field value, usually an array of the user's records. */
    void export(TenantId tenantId, String userId, JsonGenerator json);
}
