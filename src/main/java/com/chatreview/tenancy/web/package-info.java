@org.jspecify.annotations.NullMarked
package com.chatreview.tenancy.web;
