package com.chatreview.tenancy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.verifyNoInteractions;

import com.chatreview.kernel.ServiceError;
import com.chatreview.ratelimit.RequestQuotas;
import com.chatreview.web.ProblemStatus;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.NullSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.http.HttpStatus;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;

/** The admin API's gate without a server: off without {@code ADMIN_TOKEN}, open only to that token. */
class AdminAuthenticationTests {

    final RequestQuotas quotas = mock(RequestQuotas.class);

    @ParameterizedTest
    @NullSource
    @ValueSource(strings = {"", "   "})
    void withoutAnAdminTokenTheAdminApiIsTurnedOff(String adminToken) {
        AdminAuthentication authentication = authentication(adminToken);
        MockHttpServletRequest request = request();
        request.addHeader("X-Admin-Token", adminToken == null ? "anything" : adminToken);

        ServiceError error = catchThrowableOfType(
                ServiceError.class,
                () -> authentication.preHandle(request, new MockHttpServletResponse(), new Object()));

        assertThat(error).isNotNull();
        assertThat(ProblemStatus.of(error.code())).isEqualTo(HttpStatus.FORBIDDEN);
        assertThat(error.code().name()).isEqualTo("ADMIN_API_DISABLED");
        assertThat(error.fix()).contains("ADMIN_TOKEN").contains("X-Admin-Token");
        assertThat(error.getMessage()).isNotBlank();
        verifyNoInteractions(quotas);
    }

    @Test
    void theRightTokenPasses() {
        MockHttpServletRequest request = request();
        request.addHeader("X-Admin-Token", "s3cret");

        assertThat(authentication("s3cret").preHandle(request, new MockHttpServletResponse(), new Object()))
                .isTrue();
    }

    @ParameterizedTest
    @NullSource
    @ValueSource(strings = {"", "s3cre", "s3cret ", "S3CRET", "crs_aTenantKey"})
    void anyOtherTokenIsUnauthorizedAndCountsAsAFailure(String token) {
        MockHttpServletRequest request = request();
        if (token != null) {
            request.addHeader("X-Admin-Token", token);
        }

        ServiceError error = catchThrowableOfType(
                ServiceError.class,
                () -> authentication("s3cret").preHandle(request, new MockHttpServletResponse(), new Object()));

        assertThat(error).isNotNull();
        assertThat(ProblemStatus.of(error.code())).isEqualTo(HttpStatus.UNAUTHORIZED);
        assertThat(error.code().name()).isEqualTo("UNAUTHORIZED");
        verify(quotas).authenticationFailed("192.0.2.7");
    }

    private AdminAuthentication authentication(String adminToken) {
        return new AdminAuthentication(
                new TenancySettings(adminToken, Duration.ofSeconds(5), false, Duration.ofSeconds(30)), quotas);
    }

    private static MockHttpServletRequest request() {
        MockHttpServletRequest request = new MockHttpServletRequest("GET", "/admin/v1/tenants");
        request.setRemoteAddr("192.0.2.7");
        return request;
    }
}
