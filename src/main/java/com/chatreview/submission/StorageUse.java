package com.chatreview.submission;

/**
 * What a tenant's uploaded files take, and what they may.
 *
 * @param usedBytes the bytes of every file the tenant's submissions hold
 * @param allowanceBytes the most they may take: the tenant's own allowance, else the service's default
 * @param ownAllowance whether the operator gave the tenant an allowance of its own
 */
public record StorageUse(long usedBytes, long allowanceBytes, boolean ownAllowance) {}
