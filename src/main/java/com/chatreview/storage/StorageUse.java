package com.chatreview.storage;

/**
 * What a tenant's stored files take, and what they may.
 *
 * @param usedBytes the bytes of every file the tenant stores: its submissions' files and its homework's
 * @param allowanceBytes the most they may take: the tenant's own allowance, else the service's default
 * @param ownAllowance whether the operator gave the tenant an allowance of its own
 */
public record StorageUse(long usedBytes, long allowanceBytes, boolean ownAllowance) {}
