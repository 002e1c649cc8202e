// A thread started on another core than the one that starts it.
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "CSystemCalls.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>

#if defined(__linux__) && defined(__GLIBC__)
#include <sched.h>
#endif

struct tick_thread_start {
    void (*body)(void *);
    void *context;
#if defined(__linux__) && defined(__GLIBC__)
    cpu_set_t everywhere;
    int restores;
#endif
};

static void *tick_thread_begin(void *raw) {
    struct tick_thread_start start = *(struct tick_thread_start *)raw;
    free(raw);
#if defined(__linux__) && defined(__GLIBC__)
    // Started away from the starting core: from here on, anywhere it may run.
    if (start.restores) pthread_setaffinity_np(pthread_self(), sizeof start.everywhere, &start.everywhere);
#endif
    start.body(start.context);
    return NULL;
}

int tick_thread_start_elsewhere(void (*body)(void *), void *context) {
    struct tick_thread_start *start = malloc(sizeof *start);
    if (start == NULL) return ENOMEM;
    start->body = body;
    start->context = context;
    pthread_attr_t attributes;
    int failed = pthread_attr_init(&attributes);
    if (failed) {
        free(start);
        return failed;
    }
    pthread_attr_setdetachstate(&attributes, PTHREAD_CREATE_DETACHED);
#if defined(__linux__) && defined(__GLIBC__)
    start->restores = 0;
    int here = sched_getcpu();
    if (here >= 0 && sched_getaffinity(0, sizeof start->everywhere, &start->everywhere) == 0
        && CPU_COUNT(&start->everywhere) > 1 && CPU_ISSET(here, &start->everywhere)) {
        cpu_set_t elsewhere = start->everywhere;
        CPU_CLR(here, &elsewhere);
        start->restores = pthread_attr_setaffinity_np(&attributes, sizeof elsewhere, &elsewhere) == 0;
    }
#endif
    pthread_t thread;
    failed = pthread_create(&thread, &attributes, tick_thread_begin, start);
    pthread_attr_destroy(&attributes);
    if (failed) free(start);
    return failed;
}
