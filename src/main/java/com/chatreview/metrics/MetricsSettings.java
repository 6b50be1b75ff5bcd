package com.chatreview.metrics;

import java.util.List;
import java.util.UUID;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * @param tenants the tenants whose metrics carry their own {@code tenant} label ({@code METRICS_TENANTS},
 *     comma-separated ids); every other tenant is counted under {@code other}
 */
@ConfigurationProperties("metrics")
public record MetricsSettings(@DefaultValue List<UUID> tenants) {}
