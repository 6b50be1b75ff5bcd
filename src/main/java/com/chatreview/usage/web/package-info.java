@org.jspecify.annotations.NullMarked
package com.chatreview.usage.web;
