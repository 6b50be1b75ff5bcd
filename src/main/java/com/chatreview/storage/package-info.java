/**
 * What each tenant's stored files take (its submissions' and its homework's), against the operator's allowance: the
 * one count every module that stores a tenant's files reserves from, in the transaction that stores them.
 */
@org.jspecify.annotations.NullMarked
@org.springframework.modulith.ApplicationModule(displayName = "Storage")
package com.chatreview.storage;
