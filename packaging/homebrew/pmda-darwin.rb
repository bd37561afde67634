# Homebrew formula for the release archive scripts/release.sh builds. The
# script writes a copy with url and sha256 filled in (OUTDIR/pmda-darwin.rb):
# by default the url is the local archive (file://), RELEASE_URL=... names a
# published one. The values below are placeholders.
#
# PCP itself comes from PCP's own tap as a cask (pcp-perf, which installs
# PCP's .pkg under /usr/local); a formula cannot depend on a cask, so install
# checks for it and says what to run.
class PmdaDarwin < Formula
  desc "Performance Co-Pilot agents for macOS: system and per-process metrics"
  homepage "https://pcp.io/"
  url "file:///dev/null/pmda-darwin-0.1.0-macos.tar.gz"
  version "0.1.0"
  sha256 "0000000000000000000000000000000000000000000000000000000000000000"
  license "GPL-2.0-or-later"

  depends_on :macos

  PCP_CASK = "performancecopilot/performancecopilot/pcp-perf".freeze
  # Where PCP's .pkg puts libpcp: the install names the agents were linked with.
  PCP_LIBS = %w[/usr/local/lib/libpcp.4.dylib /usr/local/lib/libpcp_pmda.3.dylib].freeze

  def pcp_conf(var)
    Utils.safe_popen_read("/bin/sh", "-c", ". /etc/pcp.conf && echo $#{var}").chomp
  end

  def install
    missing = PCP_LIBS.reject { |lib| File.exist?(lib) }
    odie "PCP is not installed (no #{missing.join(", ")}): brew install --cask #{PCP_CASK}" if missing.any?

    libexec.install "libexec/pmda-darwin"
    bin.install "bin/pmda-darwin", "bin/darwin-snapshot"
    man1.install Dir["share/man/man1/*.1"]
    doc.install "README.md"
  end

  # Putting the agents in pmcd needs root, and Homebrew never runs sudo: the
  # user does. pmda-darwin install copies them from this keg into PCP's
  # directories without writing into any of PCP's files, and puts them back
  # after a PCP upgrade (README.md, "Installing into pmcd on a Mac").
  def caveats
    <<~EOS
      To serve the metrics through PCP's pmcd, put both agents in place (root):
        sudo #{opt_bin}/pmda-darwin install
      PCP's own files are set aside, not overwritten; `pmda-darwin status` tells
      whether pmcd runs these agents.
      After `brew upgrade --cask pcp-perf` (or any PCP package), PCP's agents are
      back: a notification says so, and the same install command restores these.
      Run it again after `brew upgrade pmda-darwin` too. Before
      `brew uninstall pmda-darwin`, take the agents out (PCP's come back) with
        #{opt_bin}/pmda-darwin remove    (as root, with sudo)
    EOS
  end

  test do
    # A private pmcd on a free loopback port serving only the installed
    # module, as scripts/private-pmcd.sh starts one: no root, no system pmcd.
    pmcd = "#{pcp_conf("PCP_BINADM_DIR")}/pmcd"
    pminfo = "#{pcp_conf("PCP_BIN_DIR")}/pminfo"
    port = free_port
    (testpath/"run").mkpath
    (testpath/"pmcd.conf").write "darwin\t78\tdso\tdarwin_init\t#{libexec}/pmda-darwin/darwin/pmda_darwin.dylib\n"
    env = { "PCP_RUN_DIR" => (testpath/"run").to_s, "PCP_DERIVED_CONFIG" => "" }
    pid = spawn(env, pmcd, "-f", "-A", "-i", "127.0.0.1", "-p", port.to_s, "-s", (testpath/"pmcd.socket").to_s,
                "-c", (testpath/"pmcd.conf").to_s, "-n", "#{libexec}/pmda-darwin/darwin/root",
                "-l", (testpath/"pmcd.log").to_s, "-U", ENV.fetch("USER"))
    begin
      output = ""
      50.times do
        output = shell_output("PMCD_PORT=#{port} #{pminfo} -h 127.0.0.1 -f hinv.ncpu 2>&1", nil)
        break if output.include?("value")

        sleep 0.2
      end
      ncpu = shell_output("/usr/sbin/sysctl -n hw.ncpu").strip
      assert_match(/value #{ncpu}$/, output, (testpath/"pmcd.log").read)
    ensure
      Process.kill("TERM", pid)
      Process.wait(pid)
    end
    assert_match "darwin-snapshot", shell_output("#{bin}/darwin-snapshot -h 2>&1", nil)
  end
end
