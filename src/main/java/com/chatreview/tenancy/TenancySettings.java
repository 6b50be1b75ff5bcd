package com.chatreview.tenancy;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Operator access and key handling.
 *
 * @param adminToken the token of the admin API ({@code ADMIN_TOKEN}); blank turns the admin API off (403)
 * @param keyCacheTtl how long a node trusts a key it has checked without asking the database again (a key
 *     revoked on this node stops working at once regardless), and how long it remembers that a key is unknown
 * @param demoTenant whether the first start on the embedded database creates the {@code demo} tenant
 * @param knownKeysRefresh how often a node reads the hashes of every active key: a key it knows is never refused
 *     by its address's failure budget, and a key issued on another node is known here within this time
 */
@ConfigurationProperties("tenancy")
public record TenancySettings(
        String adminToken,
        @DefaultValue("5s") Duration keyCacheTtl,
        @DefaultValue("true") boolean demoTenant,
        @DefaultValue("30s") Duration knownKeysRefresh) {

    public boolean adminApiEnabled() {
        return adminToken != null && !adminToken.isBlank();
    }
}
