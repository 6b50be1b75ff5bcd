/**
 * The HTTP adapters of the privacy module: a user's data export and erasure, the tenant's retention
 * (docs/privacy.md).
 */
@org.jspecify.annotations.NullMarked
package com.chatreview.privacy.web;
