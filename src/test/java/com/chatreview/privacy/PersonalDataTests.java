package com.chatreview.privacy;

import static org.assertj.core.api.Assertions.assertThat;

import com.chatreview.support.IntegrationTest;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * The list of what ties stored data to a user ({@link PersonalData}) is the schema's: a migration that adds a column
 * naming a user, or a table whose rows belong to a listed one, fails here until the list says what export and
 * erasure do with it.
 */
@IntegrationTest
class PersonalDataTests {

    /** The names a column that holds a tenant's user id has in this schema. */
    static final Set<String> USER_COLUMNS = Set.of("user_id", "student_id", "teacher_id", "decided_by");

    @Autowired
    JdbcClient jdbc;

    @Autowired
    UserDataExport export;

    @Test
    void everyColumnThatNamesAUserIsListed() {
        List<String> userColumns = jdbc.sql("""
                        SELECT table_name || '.' || column_name FROM information_schema.columns
                        WHERE table_schema = current_schema() AND column_name IN (:names)
                        ORDER BY 1
                        """)
                .param("names", USER_COLUMNS)
                .query((row, number) -> row.getString(1))
                .list();

        assertThat(userColumns).isNotEmpty();
        assertThat(userColumns)
                .as("columns naming a user that PersonalData does not list")
                .allSatisfy(column -> assertThat(listed()).contains(column));
    }

    @Test
    void everyTableWhoseRowsBelongToAListedTableIsListed() {
        // a table listed as kept (the school's material naming its author) holds none of the user's data
        Set<String> listedTables = Arrays.stream(PersonalData.values())
                .filter(entry -> entry.treatment() != PersonalData.Treatment.KEPT)
                .map(PersonalData::table)
                .collect(Collectors.toSet());
        List<String> belonging = jdbc.sql("""
                        SELECT DISTINCT conrelid::regclass::text FROM pg_constraint
                        WHERE contype = 'f' AND connamespace = current_schema()::regnamespace
                          AND confrelid::regclass::text IN (:listed)
                        ORDER BY 1
                        """)
                .param("listed", listedTables)
                .query((row, number) -> row.getString(1))
                .list();

        assertThat(belonging).isNotEmpty();
        assertThat(listed().stream().map(column -> column.substring(0, column.indexOf('.'))))
                .as("tables referencing a table with the user's data")
                .containsAll(belonging);
    }

    @Test
    void everyListedColumnExists() {
        Set<String> columns = Set.copyOf(
                jdbc.sql("""
                        SELECT table_name || '.' || column_name FROM information_schema.columns
                        WHERE table_schema = current_schema()
                        """).query((row, number) -> row.getString(1)).list());

        assertThat(columns).containsAll(listed());
    }

    /** What is listed as exported is what the modules' export sections read, table for table. */
    @Test
    void theExportHasASectionForEveryTableListedAsExported() {
        Set<String> exported = Arrays.stream(PersonalData.values())
                .filter(entry -> entry.treatment() == PersonalData.Treatment.EXPORTED_AND_ERASED
                        || entry.treatment() == PersonalData.Treatment.EXPORTED_AND_ANONYMIZED)
                .map(PersonalData::table)
                .collect(Collectors.toSet());

        assertThat(export.tables()).containsExactlyInAnyOrderElementsOf(exported);
    }

    private static Set<String> listed() {
        return Arrays.stream(PersonalData.values())
                .map(entry -> entry.table() + "." + entry.column())
                .collect(Collectors.toSet());
    }
}
