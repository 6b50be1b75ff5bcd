/** The moderation module's HTTP adapters: the tenant's flags and settings, the webhook of a flag, the export. */
@org.jspecify.annotations.NullMarked
package com.chatreview.moderation.web;
