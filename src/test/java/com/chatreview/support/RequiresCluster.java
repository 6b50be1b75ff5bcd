package com.chatreview.support;

import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Skips a cluster test class, loudly, when what a {@link Cluster} runs on is missing: the PostgreSQL server, the
 * {@code redis-server} program or the {@code nginx} program (Debian: {@code apt-get install redis-server
 * nginx-light}, which {@code .ci/run} does); fails it instead when {@code CI=true}.
 */
public class RequiresCluster implements ExecutionCondition {

    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
        String missing = Cluster.missing();
        if (missing == null) {
            return ConditionEvaluationResult.enabled("PostgreSQL, redis-server and nginx available");
        }
        if (TestDatabase.mandatory()) {
            throw new IllegalStateException("CI=true and the cluster tests need " + missing);
        }
        String notice = "\n!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!\n"
                + "!! SKIPPED " + context.getDisplayName() + ": it needs " + missing + "\n"
                + "!! Start PostgreSQL (see README) and install redis-server and nginx (apt-get install redis-server\n"
                + "!! nginx-light), or set REDIS_SERVER and NGINX_BIN to the programs.\n"
                + "!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!\n";
        System.err.println(notice);
        return ConditionEvaluationResult.disabled(notice);
    }
}
