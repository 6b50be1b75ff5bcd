package com.chatreview.submission;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

/**
 * What a tenant may store (docs/api.md, Homework).
 *
 * @param storagePerTenant the most a tenant's uploaded files may take in all; an upload past it is 403
 *     {@code STORAGE_QUOTA_EXCEEDED} and stores nothing ({@code LIMIT_STORAGE_BYTES_PER_TENANT}, in bytes)
 */
@ConfigurationProperties("submission")
public record SubmissionSettings(@DefaultValue("10GB") DataSize storagePerTenant) {}
