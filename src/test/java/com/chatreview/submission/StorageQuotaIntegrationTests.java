package com.chatreview.submission;

import static org.assertj.core.api.Assertions.assertThat;

import com.chatreview.support.Api;
import com.chatreview.support.IntegrationTest;
import com.chatreview.support.SharedTestConfiguration;
import com.chatreview.support.TestTenant;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;
import tools.jackson.databind.JsonNode;

/**
 * A tenant's uploaded files are bounded (docs/api.md, Homework, LIMIT_STORAGE_BYTES_PER_TENANT, 10 GiB by default): an
 * upload past it is 403 STORAGE_QUOTA_EXCEEDED, says how much is used, and stores nothing.
 */
@IntegrationTest
class StorageQuotaIntegrationTests {

    static final long LIMIT = 10L * 1024 * 1024 * 1024;
    /** The task file of {@link TestTenant#publishHomework}: "Do it.\n". */
    static final long TASK_BYTES = 7;

    /** A homework's files are stored too: they count against the same allowance, and one past it stores nothing. */
    @Test
    void aHomeworksFilesCountAgainstTheAllowanceAndOnePastItStoresNothing(TestTenant tenant) {
        Api operator = new Api(tenant.port()).with("X-Admin-Token", SharedTestConfiguration.ADMIN_TOKEN);
        String path = "/admin/v1/tenants/" + tenant.id() + "/storage";
        tenant.publishHomework("first");
        assertThat(operator.get(path).json().get("used_bytes").asLong()).isEqualTo(TASK_BYTES);
        assertThat(operator.put(path, "{\"allowance_bytes\": 1000}").status()).isEqualTo(200);
        String course = tenant.homework()
                .post("/v1/courses", "{\"teacherId\": \"t-1\", \"name\": \"Big\"}")
                .json()
                .get("id")
                .asString();
        String big = "{\"teacherId\": \"t-1\", \"courseId\": \"" + course + "\", \"assignmentId\": \"big\","
                + " \"files\": [{\"fileType\": \"task\", \"fileName\": \"task.md\", \"content\": \""
                + "x".repeat(1000) + "\"}]}";

        Api.Reply refused = tenant.homework().post("/v1/homeworks", big);

        assertThat(refused.status()).as(refused.toString()).isEqualTo(403);
        assertThat(refused.json().get("code").asString()).isEqualTo("STORAGE_QUOTA_EXCEEDED");
        assertThat(tenant.homework()
                        .get("/v1/homeworks?search=big")
                        .json()
                        .get("total")
                        .asInt())
                .as("nothing of it stored")
                .isZero();
        assertThat(operator.get(path).json().get("used_bytes").asLong()).isEqualTo(TASK_BYTES);
        assertThat(tenant.homework()
                        .post("/v1/homeworks", big.replace("x".repeat(1000), "x".repeat(900)))
                        .status())
                .isEqualTo(201);
        assertThat(operator.get(path).json().get("used_bytes").asLong()).isEqualTo(TASK_BYTES + 900);
    }

    @Autowired
    JdbcClient jdbc;

    @Test
    void anUploadPastTheTenantsAllowanceStoresNothingAndSaysWhatIsUsed(TestTenant tenant) {
        Api homework = tenant.homework();
        String homeworkId = tenant.publishHomework("a");
        // the tenant has stored all but 100 bytes of its allowance
        jdbc.sql("""
                        INSERT INTO tenant_storage (tenant_id, used_bytes) VALUES (:tenant, :used)
                        ON CONFLICT (tenant_id) DO UPDATE SET used_bytes = EXCLUDED.used_bytes""").param("tenant", tenant.uuid()).param("used", LIMIT - 100).update();

        Api.Reply refused = upload(homework, homeworkId, "student-1", 200);
        assertThat(refused.status()).as(refused.toString()).isEqualTo(403);
        assertThat(refused.json().get("code").asString()).isEqualTo("STORAGE_QUOTA_EXCEEDED");
        assertThat(refused.json().get("detail").asString()).contains(Long.toString(LIMIT - 100));
        assertThat(refused.json().get("fix").asString())
                .contains("LIMIT_STORAGE_BYTES_PER_TENANT")
                .contains("/admin/v1/tenants/{tenantId}/storage");
        assertThat(homework.get("/v1/homeworks/" + homeworkId + "/submissions?studentId=student-1")
                        .json()
                        .get("data")
                        .size())
                .as("nothing of it stored")
                .isZero();

        Api.Reply fits = upload(homework, homeworkId, "student-2", 100);
        assertThat(fits.status()).as(fits.toString()).isEqualTo(201);
        assertThat(used(tenant)).isEqualTo(LIMIT);
        assertThat(upload(homework, homeworkId, "student-3", 1).status()).isEqualTo(403);
    }

    @Test
    void theOperatorGivesATenantAnAllowanceOfItsOwnAndTakesItBack(TestTenant tenant) {
        Api homework = tenant.homework();
        String homeworkId = tenant.publishHomework("a");
        Api operator = new Api(tenant.port()).with("X-Admin-Token", SharedTestConfiguration.ADMIN_TOKEN);
        String path = "/admin/v1/tenants/" + tenant.id() + "/storage";

        JsonNode initially = operator.get(path).json();
        assertThat(initially.get("used_bytes").asLong())
                .as("the homework's task file")
                .isEqualTo(TASK_BYTES);
        assertThat(initially.get("allowance_bytes").asLong()).isEqualTo(LIMIT);
        assertThat(initially.get("own_allowance").asBoolean()).isFalse();

        Api.Reply set = operator.put(path, "{\"allowance_bytes\": 150}");
        assertThat(set.status()).as(set.toString()).isEqualTo(200);
        assertThat(set.json().get("allowance_bytes").asLong()).isEqualTo(150);
        assertThat(set.json().get("own_allowance").asBoolean()).isTrue();
        Api.Reply refused = upload(homework, homeworkId, "student-1", 200);
        assertThat(refused.status()).isEqualTo(403);
        assertThat(refused.json().get("detail").asString()).contains("of the 150 it may");
        assertThat(upload(homework, homeworkId, "student-2", 100).status()).isEqualTo(201);
        assertThat(operator.get(path).json().get("used_bytes").asLong()).isEqualTo(TASK_BYTES + 100);
        assertThat(upload(homework, homeworkId, "student-3", 100).status()).isEqualTo(403);

        Api.Reply back = operator.put(path, "{\"allowance_bytes\": null}");
        assertThat(back.json().get("allowance_bytes").asLong()).isEqualTo(LIMIT);
        assertThat(back.json().get("own_allowance").asBoolean()).isFalse();
        assertThat(upload(homework, homeworkId, "student-3", 100).status()).isEqualTo(201);

        Api.Reply negative = operator.put(path, "{\"allowance_bytes\": -1}");
        assertThat(negative.status()).isEqualTo(400);
        assertThat(negative.json().get("errors").get(0).get("field").asString()).isEqualTo("allowance_bytes");
        assertThat(operator.get("/admin/v1/tenants/" + java.util.UUID.randomUUID() + "/storage")
                        .status())
                .isEqualTo(404);
        assertThat(new Api(tenant.port()).get(path).status()).isEqualTo(401);
        assertThat(homework.put(path, "{\"allowance_bytes\": 999999999999}").status())
                .as("a tenant's own key is not the operator's")
                .isEqualTo(401);
    }

    private long used(TestTenant tenant) {
        return jdbc.sql("SELECT used_bytes FROM tenant_storage WHERE tenant_id = :tenant")
                .param("tenant", tenant.uuid())
                .query(Long.class)
                .single();
    }

    private static Api.Reply upload(Api homework, String homeworkId, String studentId, int bytes) {
        return homework.upload(
                "/v1/homeworks/" + homeworkId + "/submissions",
                new Api.Multipart()
                        .field("studentId", studentId)
                        .file(
                                "files",
                                "answer.txt",
                                "text/plain",
                                "x".repeat(bytes).getBytes(StandardCharsets.UTF_8)));
    }
}
