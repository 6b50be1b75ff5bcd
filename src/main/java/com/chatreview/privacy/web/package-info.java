/** The HTTP adapter of the privacy module: a user's data export (docs/privacy.md). */
@org.jspecify.annotations.NullMarked
package com.chatreview.privacy.web;
