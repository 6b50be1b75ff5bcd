#!/usr/bin/env python3
"""Summarises the CPU samples of a JFR recording: top frames (self time), methods on the stack (inclusive),
and samples by area (first matching frame from the top of the stack). Used by rest-reads.sh with PROFILE=1.

    python3 bench/jfr-top.py recording.jfr [top-n]
    LAST_SECONDS=25 python3 bench/jfr-top.py recording.jfr   # only the recording's last 25 s (the measured window,
                                                               # without the start-up and warm-up)
"""
import collections
import datetime
import json
import os
import subprocess
import sys

AREAS = [  # (area, prefixes); the first frame from the top that matches one names the sample's area
    ("postgres driver (pgjdbc)", ("org.postgresql.",)),
    ("connection pool (Hikari)", ("com.zaxxer.hikari.",)),
    ("JSON (Jackson)", ("tools.jackson.", "com.fasterxml.jackson.")),
    ("metrics/observation (Micrometer)", ("io.micrometer.",)),
    ("rate limit (Bucket4j)", ("io.github.bucket4j.",)),
    ("cache (Caffeine)", ("com.github.benmanes.caffeine.",)),
    ("SHA-256 / security providers", ("sun.security.", "java.security.", "javax.crypto.")),
    ("logging (logback/slf4j)", ("ch.qos.logback.", "org.slf4j.")),
    ("Spring JDBC / transactions", ("org.springframework.jdbc.", "org.springframework.transaction.")),
    ("Spring MVC / web", ("org.springframework.web.", "org.springframework.http.")),
    ("Spring other", ("org.springframework.",)),
    ("Jetty", ("org.eclipse.jetty.",)),
    ("service code (com.chatreview)", ("com.chatreview.",)),
    ("regex", ("java.util.regex.",)),
    ("virtual threads / scheduling", ("java.lang.VirtualThread", "java.util.concurrent.ForkJoin", "jdk.internal.vm.Continuation")),
    ("NIO / sockets", ("sun.nio.", "java.nio.", "sun.net.", "java.net.")),
    ("JDK other", ("java.", "jdk.", "sun.")),
]


def frame_name(frame):
    method = frame["method"]
    return method["type"]["name"].replace("/", ".") + "." + method["name"]


def area_of(frames):
    for frame in frames:
        name = frame_name(frame)
        for area, prefixes in AREAS:
            if area in ("JDK other", "NIO / sockets", "regex", "virtual threads / scheduling", "SHA-256 / security providers"):
                continue
            if name.startswith(prefixes):
                return area
    # only JDK frames that are not under a library frame: use the top frame
    name = frame_name(frames[0]) if frames else "?"
    for area, prefixes in AREAS:
        if name.startswith(prefixes):
            return area
    return "other"


def main():
    path = sys.argv[1]
    top_n = int(sys.argv[2]) if len(sys.argv) > 2 else 30
    jfr = os.path.join(os.environ.get("JAVA_HOME", "/usr"), "bin", "jfr")
    out = subprocess.run([jfr, "print", "--json", "--stack-depth", "64", "--events", "jdk.ExecutionSample", path],
                         check=True, capture_output=True, text=True).stdout
    events = json.loads(out)["recording"]["events"]
    last_seconds = float(os.environ.get("LAST_SECONDS", "0"))
    if last_seconds > 0 and events:
        def at(event):
            return datetime.datetime.fromisoformat(event["values"]["startTime"].replace("Z", "+00:00"))
        end = max(at(event) for event in events)
        events = [event for event in events if (end - at(event)).total_seconds() < last_seconds]
    self_counts = collections.Counter()
    incl_counts = collections.Counter()
    areas = collections.Counter()
    areas_incl = collections.Counter()
    threads = collections.Counter()
    for event in events:
        values = event["values"]
        frames = (values.get("stackTrace") or {}).get("frames") or []
        if not frames:
            continue
        self_counts[frame_name(frames[0])] += 1
        for name in {frame_name(f) for f in frames}:
            incl_counts[name] += 1
        areas[area_of(frames)] += 1
        seen = set()
        for f in frames:
            name = frame_name(f)
            for area, prefixes in AREAS:
                if name.startswith(prefixes):
                    seen.add(area)
                    break
        for area in seen:
            areas_incl[area] += 1
        for f in frames:
            name = frame_name(f)
            if name.startswith("com.chatreview."):
                pass
        thread = values.get("sampledThread") or {}
        threads[(thread.get("javaName") or thread.get("osName") or "?").rstrip("0123456789-")] += 1
    total = sum(self_counts.values())
    print(f"{total} CPU samples in {path}\n")
    print("== samples by area (the first library frame from the top of the stack)")
    for area, n in areas.most_common():
        print(f"{100 * n / total:6.1f}%  {n:6d}  {area}")
    print("\n== samples with the area anywhere on the stack (inclusive; a sample counts in several areas)")
    for area, n in areas_incl.most_common():
        print(f"{100 * n / total:6.1f}%  {n:6d}  {area}")
    print("\n== the service's own methods on the stack (inclusive)")
    for name, n in incl_counts.most_common():
        if name.startswith("com.chatreview.") and "$$" not in name:
            print(f"{100 * n / total:6.1f}%  {n:6d}  {name}")
    print(f"\n== top {top_n} frames (self)")
    for name, n in self_counts.most_common(top_n):
        print(f"{100 * n / total:6.1f}%  {n:6d}  {name}")
    print(f"\n== top {top_n * 4} methods on the stack (inclusive; stacks cut at 64 frames)")
    for name, n in incl_counts.most_common(top_n * 4):
        print(f"{100 * n / total:6.1f}%  {n:6d}  {name}")
    print("\n== samples by thread name (digits stripped)")
    for name, n in threads.most_common(10):
        print(f"{100 * n / total:6.1f}%  {n:6d}  {name}")


if __name__ == "__main__":
    main()
