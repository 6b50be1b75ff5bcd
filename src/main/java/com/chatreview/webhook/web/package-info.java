@org.jspecify.annotations.NullMarked
package com.chatreview.webhook.web;
