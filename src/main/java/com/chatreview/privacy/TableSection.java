package com.chatreview.privacy;

import com.chatreview.tenancy.TenantId;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Function;
import tools.jackson.core.JsonGenerator;

/**
 * The usual section of a user's data export: the user's rows of one table, named after it, written as an array in
 * the JSON of the module's own endpoints, a row at a time as the module reads them.
 *
 * @param <T> a row, as the module reads it
 */
public class TableSection<T> implements UserDataExporter {

    /** Whether the tenant holds any row of the user in the table. */
    @FunctionalInterface
    public interface Holds {
        boolean dataOf(TenantId tenantId, String userId);
    }

    /** Hands over each row of the user, oldest first, reading a batch at a time. */
    @FunctionalInterface
    public interface Rows<T> {
        void forEachOf(TenantId tenantId, String userId, Consumer<T> each);
    }

    private final String table;
    private final Holds holds;
    private final Rows<T> rows;
    private final Function<T, ?> shape;

    /** @param shape the row as the module's endpoints write it */
    protected TableSection(String table, Holds holds, Rows<T> rows, Function<T, ?> shape) {
        this.table = table;
        this.holds = holds;
        this.rows = rows;
        this.shape = shape;
    }

    @Override
    public final String section() {
        return table;
    }

    @Override
    public final Set<String> tables() {
        return Set.of(table);
    }

    @Override
    public final boolean holdsDataOf(TenantId tenantId, String userId) {
        return holds.dataOf(tenantId, userId);
    }

    @Override
    public final void export(TenantId tenantId, String userId, JsonGenerator json) {
        json.writeStartArray();
        rows.forEachOf(tenantId, userId, row -> json.writePOJO(shape.apply(row)));
        json.writeEndArray();
    }
}
