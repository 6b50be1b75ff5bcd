package com.chatreview.metrics;

import com.chatreview.tenancy.TenantId;
import java.util.Set;
import java.util.UUID;
import org.springframework.stereotype.Component;

/**
 * The {@code tenant} label of a metric: the tenant's id when the operator opted it in ({@code METRICS_TENANTS}),
 * otherwise {@code other}. Bounded by the operator's list, however many tenants there are.
 */
@Component
public class TenantTags {

    public static final String OTHER = "other";

    private final Set<UUID> named;

    TenantTags(MetricsSettings settings) {
        this.named = Set.copyOf(settings.tenants());
    }

    public String of(TenantId tenant) {
        return named.contains(tenant.value()) ? tenant.value().toString() : OTHER;
    }
}
