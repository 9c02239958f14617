// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The mmapp developers
// signals.cpp — implementation of signals.hpp (see there for the contracts).
#include "core/signals.hpp"

#include <pthread.h>
#include <semaphore.h>
#include <time.h>

#include <atomic>
#include <csignal>
#include <cstring>

namespace mmapp {
namespace {

std::atomic<int> g_signal{0};          // the first stop signal (claimed by compare-exchange: handlers may
                                       // run at once on two threads, one per signal)
static_assert(std::atomic<int>::is_always_lock_free, "the handler needs a lock-free signal slot");
std::atomic<long long> g_first_ns{0};  // CLOCK_MONOTONIC of the first stop signal
static_assert(std::atomic<long long>::is_always_lock_free, "the handler needs a lock-free clock slot");
sem_t g_wake;                          // posted by the handler: a StopWatcher's thread waits on it
std::atomic<bool> g_wake_ready{false};
std::atomic<bool> g_watcher_quit{false};

long long monotonic_ns() {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);  // async-signal-safe (POSIX.1-2008)
  return static_cast<long long>(ts.tv_sec) * 1000000000LL + ts.tv_nsec;
}

extern "C" void on_stop_signal(int sig) {
  const long long now = monotonic_ns();
  int none = 0;
  if (g_signal.compare_exchange_strong(none, sig)) {  // the first
    g_first_ns.store(now);
    if (g_wake_ready.load()) sem_post(&g_wake);  // async-signal-safe
    return;
  }
  // A stop is pending. Its time not yet stored (the first handler is still
  // running on another thread) or within the window: the same request
  // delivered again (ignored). After the window: a deliberate second
  // request, end now.
  const long long first = g_first_ns.load();
  if (first == 0 || double(now - first) < kRepeatWindowS * 1e9) return;
  std::signal(sig, SIG_DFL);
  std::raise(sig);
}

}  // namespace

namespace {
sigset_t stop_set() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGTERM);
  sigaddset(&set, SIGINT);
  return set;
}
}  // namespace

void hold_stop_signals() {
  const sigset_t set = stop_set();
  pthread_sigmask(SIG_BLOCK, &set, nullptr);
}

void install_stop_handlers() {
  struct sigaction sa;
  std::memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_stop_signal;
  sigemptyset(&sa.sa_mask);
  sigaddset(&sa.sa_mask, SIGTERM);  // one handler at a time: the first signal's record is whole
  sigaddset(&sa.sa_mask, SIGINT);
  sa.sa_flags = SA_RESTART;  // blocking calls resume; the flag is read between them
  sigaction(SIGTERM, &sa, nullptr);
  sigaction(SIGINT, &sa, nullptr);
  const sigset_t set = stop_set();
  pthread_sigmask(SIG_UNBLOCK, &set, nullptr);
}

int pending_stop_signal() { return g_signal.load(); }

int agree_stop(MPI_Comm comm) {
  int sig = g_signal.load();
  MPI_Allreduce(MPI_IN_PLACE, &sig, 1, MPI_INT, MPI_MAX, comm);
  return sig;
}

void stop_point(MPI_Comm comm) {
  if (const int sig = agree_stop(comm)) throw Stopped(sig);
}

std::string signal_name(int sig) {
  if (sig == SIGTERM) return "SIGTERM";
  if (sig == SIGINT) return "SIGINT";
  return "signal " + std::to_string(sig);
}

StopWatcher::StopWatcher(std::function<void(int)> on_stop) : on_stop_(std::move(on_stop)) {
  sem_init(&g_wake, 0, 0);
  g_watcher_quit = false;
  g_wake_ready = true;
  if (g_signal.load() != 0) sem_post(&g_wake);  // a signal that came before the watcher
  thread_ = std::thread([this] {
    while (sem_wait(&g_wake) != 0) {  // EINTR: wait again
    }
    if (!g_watcher_quit && g_signal.load() != 0) on_stop_(g_signal.load());
  });
}

StopWatcher::~StopWatcher() {
  g_watcher_quit = true;
  g_wake_ready = false;
  sem_post(&g_wake);
  thread_.join();
  sem_destroy(&g_wake);
}

}  // namespace mmapp
