package com.chatreview.lti;

import static org.assertj.core.api.Assertions.assertThat;

import com.chatreview.lti.platform.EmulatedPlatform;
import com.chatreview.support.Api;
import com.chatreview.support.TestService;
import com.chatreview.support.TestTenant;
import java.io.IOException;

/**
 * A platform emulated for a test class, with the tool (the service under test) registered in it, and a new tenant
 * that registered the platform through the REST API.
 */
record RegisteredTool(EmulatedPlatform platform, EmulatedPlatform.Tool tool, TestTenant school, String platformId) {

    static RegisteredTool in(TestService service, String tenantName) throws IOException {
        EmulatedPlatform platform = new EmulatedPlatform();
        String base = "http://127.0.0.1:" + service.port();
        // the LMS first, which gives the client id; the tool's JWKS URL for the registration is known once the
        // tenant registered the platform, and entered in the LMS then
        EmulatedPlatform.Tool unkeyed = platform.register(base + "/lti/login", base + "/lti/launch", "unknown-yet");
        TestTenant school = service.newTenant(tenantName);
        Api.Reply registered = school.chats()
                .post("/api/v1/lti/platforms", Api.JSON.writeValueAsString(platform.registrationFor(unkeyed)));
        assertThat(registered.status()).as(registered.toString()).isEqualTo(201);
        EmulatedPlatform.Tool tool =
                platform.useJwks(unkeyed, registered.json().get("tool_jwks_url").asString());
        return new RegisteredTool(
                platform, tool, school, registered.json().get("id").asString());
    }
}
