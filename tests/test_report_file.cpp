// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The mmapp developers
// test_report_file.cpp — the report file's mechanics (report_file.hpp) and the
// incremental report writer (report.hpp): what the up-front check refuses
// and that it touches nothing it refuses; the atomic replacement (mode kept,
// links never followed, nothing left behind on a full disk or a failed
// fsync); readers racing two writers; the UTF-8-safe rendering; the
// incremental report equal to the whole one, at a cost linear in the runs.
// Every rank runs these in its own temporary folder.
#include "report/report.hpp"
#include "report/report_file.hpp"

#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>
#include <nlohmann/json.hpp>

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace fs = std::filesystem;
using mmapp::check_report_target;
using mmapp::replace_file_atomically;

namespace {

/// A fresh folder under TMPDIR (or /tmp), removed with its contents.
struct TempDir {
  std::string path;
  TempDir() {
    const char* base = std::getenv("TMPDIR");
    std::string tmpl = std::string(base && *base ? base : "/tmp") + "/mmapp-report-XXXXXX";
    // A throw, not REQUIRE: nvcc 13.0's front end (cudafe++) never finished this
    // file with a Catch2 assertion in this constructor (CUDA builds only).
    if (::mkdtemp(tmpl.data()) == nullptr) throw std::runtime_error("mkdtemp failed: " + tmpl);
    path = tmpl;
  }
  ~TempDir() {
    std::error_code ec;
    for (const auto& e : fs::recursive_directory_iterator(path, ec))  // read-only folders of a test
      if (e.is_directory(ec) && !e.is_symlink(ec))
        fs::permissions(e.path(), fs::perms::owner_all, fs::perm_options::add, ec);
    fs::remove_all(path, ec);
  }
  std::string operator/(const std::string& name) const { return path + "/" + name; }
};

/// The names in `dir` (hidden ones too), sorted.
std::set<std::string> listing(const std::string& dir) {
  std::set<std::string> names;
  for (const auto& e : fs::directory_iterator(dir)) names.insert(e.path().filename().string());
  return names;
}

std::string slurp(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}

void spit(const std::string& path, const std::string& text) {
  std::ofstream f(path, std::ios::binary);
  f << text;
}

mode_t mode_of(const std::string& path) {
  struct stat st {};
  REQUIRE(::lstat(path.c_str(), &st) == 0);
  return st.st_mode & 07777;
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

/// Sets the umask for a scope.
struct Umask {
  mode_t old;
  explicit Umask(mode_t m) : old(::umask(m)) {}
  ~Umask() { ::umask(old); }
};

}  // namespace

TEST_CASE("escape_invalid_utf8 keeps valid UTF-8 and escapes every invalid byte", "[report_file]") {
  using mmapp::escape_invalid_utf8;
  for (const std::string ok : std::vector<std::string>{"", "r.json", "caf\xC3\xA9", "\xE2\x82\xAC", "\xF0\x9F\x98\x80",
                                                       "\xEF\xBF\xBF", "\xF4\x8F\xBF\xBF", std::string("a\0b", 3)}) {
    CHECK(mmapp::is_valid_utf8(ok));
    CHECK(escape_invalid_utf8(ok) == ok);
  }
  CHECK(escape_invalid_utf8("d\xFF\xFE.yaml") == "d\\xff\\xfe.yaml");
  CHECK(escape_invalid_utf8("\xC0\x80") == "\\xc0\\x80");                    // overlong NUL
  CHECK(escape_invalid_utf8("\xE0\x80\xAF") == "\\xe0\\x80\\xaf");           // overlong '/'
  CHECK(escape_invalid_utf8("\xED\xA0\x80") == "\\xed\\xa0\\x80");           // a UTF-16 surrogate
  CHECK(escape_invalid_utf8("\xF4\x90\x80\x80") == "\\xf4\\x90\\x80\\x80");  // above U+10FFFF
  CHECK(escape_invalid_utf8("x\xE2\x82") == "x\\xe2\\x82");                  // cut short
  CHECK(escape_invalid_utf8("\x80\xC3\xA9") == "\\x80\xC3\xA9");             // resynchronises

  // Against an independent validator (nlohmann::json's, which throws
  // type_error 316 on what it rejects): random byte strings.
  std::mt19937 gen(7);
  for (int i = 0; i < 20000; ++i) {
    std::string s(gen() % 8, '\0');
    for (auto& c : s) c = char(gen() % 3 == 0 ? gen() % 128 : 0x80 + gen() % 128);
    bool json_ok = true;
    try {
      (void)nlohmann::json(s).dump();
    } catch (const nlohmann::json::type_error&) {
      json_ok = false;
    }
    INFO(nlohmann::json(escape_invalid_utf8(s)).dump());
    REQUIRE(mmapp::is_valid_utf8(s) == json_ok);
    const std::string e = escape_invalid_utf8(s);
    REQUIRE(mmapp::is_valid_utf8(e));
    REQUIRE_NOTHROW(nlohmann::json(e).dump());
  }
}

TEST_CASE("the up-front check refuses what is no regular file and touches nothing", "[report_file]") {
  TempDir d;
  spit(d / "victim.txt", "victim\n");
  REQUIRE(::mkfifo((d / "fifo").c_str(), 0644) == 0);
  fs::create_directory(d / "dir");
  fs::create_symlink("victim.txt", d / "link.json");
  fs::create_symlink("missing.json", d / "dangling.json");
  fs::create_symlink("/dev/null", d / "devlink.json");
  const int sock = ::socket(AF_UNIX, SOCK_STREAM, 0);
  REQUIRE(sock >= 0);
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  const std::string sock_path = d / "sock";
  REQUIRE(sock_path.size() < sizeof addr.sun_path);
  std::snprintf(addr.sun_path, sizeof addr.sun_path, "%s", sock_path.c_str());
  REQUIRE(::bind(sock, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0);
  const auto before = listing(d.path);

  struct Case {
    std::string path, why;
  };
  const std::vector<Case> cases{{d / "fifo", "is a FIFO"},
                                {d / "sock", "is a socket"},
                                {d / "dir", "is a directory"},
                                {d / "dir/", "names a directory"},
                                {d / ".", "names a directory"},
                                {d / "link.json", "is a symbolic link"},
                                {d / "dangling.json", "is a symbolic link"},
                                {d / "devlink.json", "symbolic link to a character device"},
                                {d / "victim.txt/r.json", "is not a directory"},
                                {d / std::string(256, 'n'), "longer than the 255"},
                                {d.path + "/" +
                                     [] {
                                       std::string deep;  // short names, 4,800 bytes in all
                                       for (int i = 0; i < 1200; ++i) deep += "abc/";
                                       return deep + "r.json";
                                     }(),
                                 "the path is"}};
  for (const auto& c : cases) {
    INFO(c.path);
    const std::string why = check_report_target(c.path, "--report");
    CHECK(contains(why, "--report '"));
    CHECK(contains(why, c.why));
    CHECK(listing(d.path) == before);  // no temporary file, no directory made
  }
  CHECK(slurp(d / "victim.txt") == "victim\n");
  CHECK(contains(check_report_target(d / "fifo", "deck.yaml: output.report"), "deck.yaml: output.report '"));
  ::close(sock);
}

TEST_CASE("the up-front check refuses devices and leaves them as they were", "[report_file]") {
  for (const char* dev : {"/dev/null", "/dev/full", "/dev/zero"}) {
    struct stat a {
    }, b{};
    if (::lstat(dev, &a) != 0) continue;
    INFO(dev);
    CHECK(contains(check_report_target(dev, "--report"), "is a character device, not a regular file"));
    REQUIRE(::lstat(dev, &b) == 0);
    CHECK(S_ISCHR(b.st_mode));
    CHECK(a.st_rdev == b.st_rdev);
    CHECK(a.st_mode == b.st_mode);
    CHECK(a.st_ino == b.st_ino);
  }
  // A name in /dev is refused before any file is tried there.
  CHECK(contains(check_report_target("/dev/stdout", "--report"), "symbolic link"));
}

TEST_CASE("the up-front check creates a missing directory and accepts files and absent names", "[report_file]") {
  TempDir d;
  const std::string deep = d / "a/b/c/r.json";
  CHECK(check_report_target(deep, "--report") == "");
  CHECK(fs::is_directory(d / "a/b/c"));
  CHECK(listing(d / "a/b/c").empty());  // the trial file is removed
  spit(d / "old.json", "{}");
  ::chmod((d / "old.json").c_str(), 0444);
  CHECK(check_report_target(d / "old.json", "--report") == "");
  CHECK(slurp(d / "old.json") == "{}");
  CHECK(mode_of(d / "old.json") == 0444);
  CHECK(check_report_target("", "--report") == "");  // no report
  // A name of exactly 255 bytes is fine (the temporary name is shortened).
  CHECK(check_report_target(d / std::string(255, 'x'), "--report") == "");
  CHECK(listing(d.path) == std::set<std::string>{"a", "old.json"});
}

TEST_CASE("the up-front check refuses a directory it cannot write or create", "[report_file]") {
  TempDir d;
  fs::create_directory(d / "ro");
  REQUIRE(::chmod((d / "ro").c_str(), 0555) == 0);
  if (::geteuid() == 0) {
    WARN("running as root: permission bits do not stop root; the read-only directory case is skipped");
  } else {
    const std::string why = check_report_target(d / "ro/r.json", "--report");
    CHECK(contains(why, "is not writable"));
    CHECK(contains(why, "Permission denied"));
    const std::string why2 = check_report_target(d / "ro/sub/r.json", "--report");
    CHECK(contains(why2, "cannot be created"));
    CHECK(listing(d / "ro").empty());
  }
}

TEST_CASE("the up-front check refuses another user's file in a sticky directory", "[report_file]") {
  if (::geteuid() != 0) {
    WARN("not root: cannot make a file of another user; the sticky-directory case is skipped");
    return;
  }
  TempDir d;
  const std::string sticky = d / "sticky", r = sticky + "/r.json";
  REQUIRE(::chmod(d.path.c_str(), 0755) == 0);  // mkdtemp's 0700 would stop the other user before
  fs::create_directory(sticky);
  REQUIRE(::chmod(sticky.c_str(), 01777) == 0);
  spit(r, "theirs");
  REQUIRE(::chown(r.c_str(), 65534, 65534) == 0);
  CHECK(check_report_target(r, "--report") == "");  // root may replace it
  // A third user (neither the file's nor the directory's owner) may not.
  int fds[2];
  REQUIRE(::pipe(fds) == 0);
  const pid_t child = ::fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    ::close(fds[0]);
    std::string why = "setuid failed";
    if (::setgid(65533) == 0 && ::setuid(65533) == 0) why = check_report_target(r, "--report");
    (void)!::write(fds[1], why.data(), why.size());
    ::_exit(0);
  }
  ::close(fds[1]);
  std::string why;
  char buf[512];
  for (ssize_t n; (n = ::read(fds[0], buf, sizeof buf)) > 0;) why.append(buf, size_t(n));
  ::close(fds[0]);
  ::waitpid(child, nullptr, 0);
  INFO(why);
  CHECK(contains(why, "belongs to another user (uid 65534) in the sticky directory"));
  CHECK(slurp(r) == "theirs");
}

TEST_CASE("replace_file_atomically: the content, a new file's mode from the umask, an old file's mode kept",
          "[report_file]") {
  TempDir d;
  const std::string r = d / "r.json";
  {
    Umask u(022);
    replace_file_atomically(r, "{\"a\": 1}\n", "--report");
  }
  CHECK(slurp(r) == "{\"a\": 1}\n");
  CHECK(mode_of(r) == 0644);
  const std::string r2 = d / "r2.json";
  {
    Umask u(077);
    replace_file_atomically(r2, "x", "--report");
  }
  CHECK(mode_of(r2) == 0600);
  for (const mode_t m : {0444, 0640, 0604, 0755}) {
    REQUIRE(::chmod(r.c_str(), m) == 0);
    Umask u(077);
    replace_file_atomically(r, "{\"mode\": " + std::to_string(m) + "}", "--report");
    CHECK(mode_of(r) == m);
    CHECK(slurp(r) == "{\"mode\": " + std::to_string(m) + "}");
  }
  CHECK(listing(d.path) == std::set<std::string>{"r.json", "r2.json"});
  // A file name of 255 bytes: the temporary file's name is cut to fit.
  replace_file_atomically(d / std::string(255, 'y'), "long", "--report");
  CHECK(slurp(d / std::string(255, 'y')) == "long");
  CHECK(listing(d.path).size() == 3);
}

TEST_CASE("replace_file_atomically never follows a link at the temporary names", "[report_file]") {
  TempDir d;
  spit(d / "victim.txt", "victim\n");
  const std::string r = d / "r.json";
  // Links at the old fixed name and at the names the writer draws.
  for (const char* name :
       {"r.json.partial", "r.json.tmp", ".r.json.tmp", ".r.json.aaaaaaaa.tmp", ".r.json.bbbbbbbb.tmp"})
    fs::create_symlink("victim.txt", d / name);
  const auto links = listing(d.path);
  mmapp::FileOps ops;
  int draws = 0;
  ops.random_suffix = [&] { return ++draws <= 2 ? std::string(8, char('a' + draws - 1)) : std::string("cccccccc"); };
  replace_file_atomically(r, "report", "--report", ops);
  CHECK(draws == 3);  // the two taken names were passed over
  CHECK(slurp(r) == "report");
  CHECK(slurp(d / "victim.txt") == "victim\n");
  auto expect = links;
  expect.insert("r.json");
  CHECK(listing(d.path) == expect);
  for (const char* name : {"r.json.partial", ".r.json.aaaaaaaa.tmp"}) CHECK(fs::is_symlink(d / name));

  // Every name taken: an error, nothing written anywhere.
  ops.random_suffix = [] { return std::string("aaaaaaaa"); };
  CHECK_THROWS_WITH(replace_file_atomically(r, "other", "--report", ops),
                    Catch::Matchers::ContainsSubstring("cannot create a temporary file"));
  CHECK(slurp(r) == "report");
  CHECK(slurp(d / "victim.txt") == "victim\n");
  CHECK(listing(d.path) == expect);
}

TEST_CASE("replace_file_atomically refuses a target that became no regular file", "[report_file]") {
  TempDir d;
  const std::string r = d / "r.json";
  REQUIRE(::mkfifo(r.c_str(), 0644) == 0);
  CHECK_THROWS_WITH(replace_file_atomically(r, "x", "--report"), Catch::Matchers::ContainsSubstring("is a FIFO now"));
  spit(d / "victim.txt", "victim\n");
  const std::string l = d / "l.json";
  fs::create_symlink("victim.txt", l);
  CHECK_THROWS_WITH(replace_file_atomically(l, "x", "--report"),
                    Catch::Matchers::ContainsSubstring("is a symbolic link now"));
  CHECK(slurp(d / "victim.txt") == "victim\n");
  CHECK(listing(d.path) == std::set<std::string>{"r.json", "l.json", "victim.txt"});
}

TEST_CASE("a full disk or a failed fsync: a clear error, the old report kept, nothing left behind", "[report_file]") {
  TempDir d;
  const std::string r = d / "r.json";
  spit(r, "old report");
  REQUIRE(::chmod(r.c_str(), 0640) == 0);
  const std::string text(100000, 'z');

  SECTION("ENOSPC part way through the write") {
    mmapp::FileOps ops;
    size_t written = 0;
    ops.write = [&](int fd, const void* buf, size_t n) -> ssize_t {
      if (written >= 4096) return errno = ENOSPC, -1;
      const ssize_t w = ::write(fd, buf, std::min<size_t>(n, 4096 - written));
      written += size_t(w);
      return w;
    };
    try {
      replace_file_atomically(r, text, "--report", ops);
      FAIL("no error on a full disk");
    } catch (const std::runtime_error& e) {
      const std::string what = e.what();
      CHECK(contains(what, "--report '" + r + "'"));
      CHECK(contains(what, "No space left on device"));
      CHECK(contains(what, "left as it was"));
    }
    CHECK(written == 4096);
  }
  SECTION("EIO from fsync") {
    mmapp::FileOps ops;
    ops.fsync = [](int) { return errno = EIO, -1; };
    CHECK_THROWS_WITH(replace_file_atomically(r, text, "--report", ops),
                      Catch::Matchers::ContainsSubstring("Input/output error"));
  }
  SECTION("a real file size limit (RLIMIT_FSIZE, SIGXFSZ ignored): EFBIG") {
    rlimit old{};
    REQUIRE(::getrlimit(RLIMIT_FSIZE, &old) == 0);
    const auto old_handler = std::signal(SIGXFSZ, SIG_IGN);
    rlimit small = old;
    small.rlim_cur = 8192;
    REQUIRE(::setrlimit(RLIMIT_FSIZE, &small) == 0);
    std::string what;
    try {
      replace_file_atomically(r, text, "--report");
    } catch (const std::runtime_error& e) {
      what = e.what();
    }
    ::setrlimit(RLIMIT_FSIZE, &old);
    std::signal(SIGXFSZ, old_handler);
    CHECK(contains(what, "File too large"));
    CHECK(contains(what, r));
  }
  CHECK(slurp(r) == "old report");
  CHECK(mode_of(r) == 0640);
  CHECK(listing(d.path) == std::set<std::string>{"r.json"});
}

TEST_CASE("two writers on one path: a reader never sees a partial file, the last writer wins", "[report_file]") {
  TempDir d;
  const std::string r = d / "r.json";
  replace_file_atomically(r, nlohmann::json{{"writer", -1}}.dump(), "--report");
  constexpr int kRewrites = 300;
  std::atomic<int> running{2};
  std::atomic<long> reads{0}, bad{0}, failed_writes{0};
  std::string last[2];
  const auto writer = [&](int id) {
    for (int i = 0; i < kRewrites; ++i) {
      // Documents of different lengths, so a torn or truncated one cannot parse.
      nlohmann::json j{{"writer", id}, {"seq", i}, {"pad", std::string(1000 + 7919 * ((i * 13 + id) % 17), 'p')}};
      last[id] = j.dump(2);
      try {
        replace_file_atomically(r, last[id], "--report");
      } catch (const std::exception&) {
        ++failed_writes;
      }
    }
    --running;
  };
  std::thread reader([&] {
    while (running > 0) {
      const std::string text = slurp(r);
      ++reads;
      try {
        const auto j = nlohmann::json::parse(text);
        if (!j.contains("writer")) ++bad;
      } catch (const nlohmann::json::exception&) {
        ++bad;
      }
    }
  });
  std::thread w0(writer, 0), w1(writer, 1);
  w0.join(), w1.join(), reader.join();
  INFO(reads << " reads");
  CHECK(reads > 0);
  CHECK(bad == 0);
  CHECK(failed_writes == 0);
  const std::string final_text = slurp(r);
  CHECK((final_text == last[0] || final_text == last[1]));
  CHECK(listing(d.path) == std::set<std::string>{"r.json"});
}

namespace {

mmapp::RunRecord record(int i, const std::string& kernel) {
  mmapp::RunRecord r;
  r.kernel = kernel;
  r.dtype = i % 2 ? "double" : "float";
  r.m = r.n = r.k = 10 + i;
  r.time = {1e-3 * i, 2e-3 * i, 3e-3 * i};
  r.gflops = 1.5 * i;
  r.pct_of_vendor = -1;
  r.phases_s["kernel"] = 0.25 * i;
  r.checksum = "0x" + std::to_string(1000 + i);
  return r;
}

}  // namespace

TEST_CASE("the incremental report equals the whole report, at a cost linear in the runs", "[report_file][report]") {
  TempDir d;
  mmapp::Config cfg;
  cfg.deck_path = "decks/d\xFF\xFE.yaml";  // not UTF-8
  cfg.resolved_yaml = "problem: {n: 10}\noutput: {report: \"r\xC0.json\"}\n";
  cfg.kernels.resize(3);
  mmapp::Provenance prov;
  prov.mmapp_version = "test";
  prov.rank_hosts = {"host"}, prov.rank_devices = {"cpu"}, prov.rank_backends = {"serial"}, prov.rank_device_ids = {-1};
  const std::string r = d / "r.json";
  mmapp::ReportWriter w(r, "--report", cfg, prov);

  std::vector<mmapp::RunRecord> runs;
  constexpr int kCases = 40;
  for (int c = 0; c < kCases; ++c) {
    const size_t first = runs.size();
    for (const char* k : {"naive", "tiled", "vendor"}) {
      runs.push_back(record(int(runs.size()), k));
      if (std::string(k) == "vendor")  // as the driver does: the case's earlier runs get their percent
        for (size_t j = first; j < runs.size(); ++j)
          runs[j].pct_of_vendor = 100.0 * runs[j].gflops / runs.back().gflops;
      w.update(runs);
      REQUIRE(slurp(r) == mmapp::json_report(cfg, prov, runs, {false, ""}));
    }
  }
  // Each update serialises the run that became final once and the case in
  // flight (3 runs) again: at most 4 per update here, 480 in all, against
  // 1 + 2 + ... + 120 = 7260 for whole rewrites.
  const size_t updates = 3 * kCases;
  CHECK(w.runs_serialised() <= 4 * updates);
  CHECK(w.runs_serialised() >= updates);
  w.finish(runs, {true, ""});
  const std::string text = slurp(r);
  CHECK(text == mmapp::json_report(cfg, prov, runs, {true, ""}));
  const auto j = nlohmann::json::parse(text);
  CHECK(j["complete"] == true);
  CHECK(j["runs"].size() == runs.size());
  CHECK(j["deck"]["path"] == "decks/d\\xff\\xfe.yaml");
  CHECK(contains(j["deck"]["resolved_yaml"].get<std::string>(), "r\\xc0.json"));
  CHECK(j["runs"][2]["pct_of_vendor"] == 100.0);
  CHECK(listing(d.path) == std::set<std::string>{"r.json"});

  // No runs yet: an empty array.
  mmapp::ReportWriter w2(d / "empty.json", "--report", cfg, prov);
  w2.update({});
  CHECK(slurp(d / "empty.json") == mmapp::json_report(cfg, prov, {}, {false, ""}));
}
