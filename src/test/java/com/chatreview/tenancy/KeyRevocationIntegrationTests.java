package com.chatreview.tenancy;

import static org.assertj.core.api.Assertions.assertThat;

import com.chatreview.support.IntegrationTest;
import com.chatreview.support.SingleNodeToo;
import com.chatreview.support.TestService;
import com.chatreview.support.TestTenant;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/** A revoked key fails from the moment its revocation commits, whatever was checked while it committed. */
@SingleNodeToo
@IntegrationTest
class KeyRevocationIntegrationTests {

    @Autowired
    Tenancy tenancy;

    @Autowired
    PlatformTransactionManager transactions;

    @Test
    void aKeyCheckedWhileItsRevocationCommitsIsNotTrustedAfterwards(TestService service) {
        TestTenant tenant = service.newTenant("revocation");
        Tenancy.IssuedKey key = tenancy.issueKey(tenant.id());
        assertThat(tenancy.authenticate(key.apiKey())).isPresent();

        new TransactionTemplate(transactions).executeWithoutResult(revoking -> {
            tenancy.revokeKey(tenant.id(), key.id().toString());
            // a request on another connection, before the revocation commits: the key is still active there
            Optional<Tenant> meanwhile = CompletableFuture.supplyAsync(() -> tenancy.authenticate(key.apiKey()))
                    .orTimeout(10, TimeUnit.SECONDS)
                    .join();
            assertThat(meanwhile).isPresent();
        });

        assertThat(tenancy.authenticate(key.apiKey())).isEmpty();
        assertThat(tenant.chats()
                        .with("X-API-Key", key.apiKey())
                        .get("/api/v1/chats/user/u-1")
                        .status())
                .isEqualTo(401);
    }
}
