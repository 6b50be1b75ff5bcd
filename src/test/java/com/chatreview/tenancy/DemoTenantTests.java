package com.chatreview.tenancy;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/** The demo tenant's banner: its example call works when pasted as printed. */
class DemoTenantTests {

    @Test
    void theExampleNamesTheRealPortAndSendsValidJson() {
        String banner = DemoTenant.banner("crs_theKey", "18080");

        Matcher call = Pattern.compile(
                        "curl -H 'X-API-Key: (\\S+)' (\\S+) \\\\\\n\\s+-H 'Content-Type: application/json'"
                                + " -d '([^']*)'")
                .matcher(banner);
        assertThat(call.find()).as(banner).isTrue();
        assertThat(call.group(1)).isEqualTo("crs_theKey");
        assertThat(call.group(2)).isEqualTo("http://localhost:18080/api/v1/chats");
        assertThat(JsonMapper.builder()
                        .build()
                        .readTree(call.group(3))
                        .get("user_id")
                        .asString())
                .isEqualTo("student-1");
        assertThat(banner).doesNotContain("<port>").doesNotContain("{{");
    }
}
