package com.chatreview.storage;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

/**
 * What a tenant may store (docs/limits.md, Storage).
 *
 * @param perTenant the most a tenant's stored files (submissions' and homework's) may take in all; an upload or a
 *     homework past it is 403 {@code STORAGE_QUOTA_EXCEEDED} and stores nothing ({@code LIMIT_STORAGE_BYTES_PER_TENANT},
 *     in bytes)
 */
@ConfigurationProperties("storage")
public record StorageSettings(@DefaultValue("10GB") DataSize perTenant) {}
