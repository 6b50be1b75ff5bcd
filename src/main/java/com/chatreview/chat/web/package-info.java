@org.jspecify.annotations.NullMarked
package com.chatreview.chat.web;
