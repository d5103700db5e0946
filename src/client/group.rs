//! Children in process groups of their own, ended as a whole: every engine or program
//! Rookling starts ([`spawn`]) leads a new process group, and ending it ([`end`],
//! [`reap`]) ends the group, so that no grandchild (`sh -c 'sleep 7; ...'`, a wrapper
//! script's engine) keeps a core busy after Rookling is done with it.
//!
//! Since the groups no longer get the terminal's signals, Rookling passes them on: the
//! first [`spawn`] installs handlers for SIGINT, SIGTERM and SIGHUP (unless the signal
//! was ignored when Rookling started) that kill every group still running, then let the
//! signal end Rookling as it would have. On other systems a child is ended alone.

use std::process::{Child, Command, ExitStatus};
use std::time::{Duration, Instant};

/// How long a child given SIGTERM ([`end`]) may take to exit before SIGKILL.
pub const TERM_GRACE: Duration = Duration::from_millis(300);

/// Starts `command` as the leader of a new process group.
pub fn spawn(command: &mut Command) -> std::io::Result<Child> {
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        command.process_group(0);
        unix::install_handlers();
    }
    let child = command.spawn()?;
    #[cfg(unix)]
    unix::register(child.id());
    Ok(child)
}

/// Whether `child` has exited, without reaping it (so that its group can still be named
/// safely: the id of an unreaped child is never reused).
pub fn exited(child: &mut Child) -> bool {
    #[cfg(unix)]
    {
        unix::exited(child.id())
    }
    #[cfg(not(unix))]
    {
        matches!(child.try_wait(), Ok(Some(_)))
    }
}

/// Waits up to `timeout` for `child` to exit (polling every `poll`); then ends what is
/// left of its group and reaps it. `None` if it did not exit in time (it still runs)
/// or its status was lost.
pub fn wait(child: &mut Child, timeout: Duration, poll: Duration) -> Option<ExitStatus> {
    let start = Instant::now();
    while !exited(child) {
        if start.elapsed() >= timeout {
            return None;
        }
        std::thread::sleep(poll);
    }
    reap(child)
}

/// After `child` exited: kills what it left running in its group, reaps it and returns
/// its status (`None` if lost). If it has not exited, this kills it.
pub fn reap(child: &mut Child) -> Option<ExitStatus> {
    #[cfg(unix)]
    unix::kill_group(child.id(), libc::SIGKILL);
    #[cfg(not(unix))]
    let _ = child.kill();
    collect(child)
}

/// Ends `child` and its whole group: SIGTERM, up to [`TERM_GRACE`] to exit, then
/// SIGKILL; reaps it and returns its status (`None` if lost).
pub fn end(child: &mut Child) -> Option<ExitStatus> {
    #[cfg(unix)]
    if !exited(child) {
        unix::kill_group(child.id(), libc::SIGTERM);
        let start = Instant::now();
        while !exited(child) && start.elapsed() < TERM_GRACE {
            std::thread::sleep(Duration::from_millis(5));
        }
    }
    reap(child)
}

/// Reaps `child` (killed or exited) and forgets its group; `None` if its status was
/// lost (something else reaped it: SIGCHLD ignored).
fn collect(child: &mut Child) -> Option<ExitStatus> {
    let status = child.wait().ok();
    #[cfg(unix)]
    unix::unregister(child.id());
    status
}

#[cfg(unix)]
mod unix {
    //! The group registry and the signal handlers.

    use std::sync::Once;
    use std::sync::atomic::{AtomicI32, Ordering};

    /// The groups still running (their leaders' ids; 0 is a free slot). A fixed array of
    /// atomics, since a signal handler may read it. Past 256 children at once the rest
    /// are not killed by a signal (they still are when Rookling ends them).
    static GROUPS: [AtomicI32; 256] = [const { AtomicI32::new(0) }; 256];

    /// Notes a group as running.
    pub fn register(pid: u32) {
        let Ok(pid) = i32::try_from(pid) else { return };
        for slot in &GROUPS {
            if slot
                .compare_exchange(0, pid, Ordering::SeqCst, Ordering::SeqCst)
                .is_ok()
            {
                return;
            }
        }
    }

    /// Notes a group as ended.
    pub fn unregister(pid: u32) {
        let Ok(pid) = i32::try_from(pid) else { return };
        for slot in &GROUPS {
            if slot
                .compare_exchange(pid, 0, Ordering::SeqCst, Ordering::SeqCst)
                .is_ok()
            {
                return;
            }
        }
    }

    /// Sends `signal` to the group led by `pid` (an error, such as a group already
    /// gone, is ignored).
    pub fn kill_group(pid: u32, signal: libc::c_int) {
        if let Ok(pid) = i32::try_from(pid)
            && pid > 0
        {
            // SAFETY: killpg only sends a signal; a negative or stale id is an error
            // it returns, never undefined behaviour.
            unsafe {
                libc::killpg(pid, signal);
            }
        }
    }

    /// Whether the child `pid` has exited, leaving it unreaped (`WNOWAIT`).
    pub fn exited(pid: u32) -> bool {
        let pid: libc::id_t = pid;
        // SAFETY: `info` is a plain C struct that waitid fills; zeroed is a valid value.
        let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
        // SAFETY: waitid writes only into `info`, which lives across the call.
        let result = unsafe {
            libc::waitid(
                libc::P_PID,
                pid,
                &mut info,
                libc::WEXITED | libc::WNOHANG | libc::WNOWAIT,
            )
        };
        // SAFETY: reading the pid field of a siginfo_t that waitid filled (or zeroed).
        result == -1 || unsafe { info.si_pid() } != 0
    }

    /// Kills every registered group, then lets `signal` end this process as it would
    /// have without the handler. Only async-signal-safe calls.
    extern "C" fn on_signal(signal: libc::c_int) {
        for slot in &GROUPS {
            let pid = slot.load(Ordering::SeqCst);
            if pid > 0 {
                // SAFETY: killpg is async-signal-safe and only sends a signal.
                unsafe {
                    libc::killpg(pid, libc::SIGKILL);
                }
            }
        }
        // SAFETY: signal() and raise() are async-signal-safe; the default action of
        // these signals ends the process.
        unsafe {
            libc::signal(signal, libc::SIG_DFL);
            libc::raise(signal);
        }
    }

    /// Installs [`on_signal`] for SIGINT, SIGTERM and SIGHUP, once, leaving alone a
    /// signal that was ignored (`nohup`, a background job) or already handled.
    pub fn install_handlers() {
        static ONCE: Once = Once::new();
        ONCE.call_once(|| {
            for signal in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
                // SAFETY: sigaction with a zeroed new action only reads the current one
                // (a null new action pointer), then installs a handler that calls only
                // async-signal-safe functions.
                unsafe {
                    let mut old: libc::sigaction = std::mem::zeroed();
                    if libc::sigaction(signal, std::ptr::null(), &mut old) != 0
                        || old.sa_sigaction != libc::SIG_DFL
                    {
                        continue;
                    }
                    let mut action: libc::sigaction = std::mem::zeroed();
                    action.sa_sigaction = on_signal as extern "C" fn(libc::c_int) as usize;
                    libc::sigemptyset(&mut action.sa_mask);
                    libc::sigaction(signal, &action, std::ptr::null_mut());
                }
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::process::Stdio;

    /// Whether process `pid` is still there (and not a zombie).
    fn alive(pid: u32) -> bool {
        std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|s| {
            !s.rsplit(')')
                .next()
                .unwrap_or("")
                .trim_start()
                .starts_with('Z')
        })
    }

    /// `sh -c script` in its own group, printing the id of a grandchild `sleep` first.
    fn sleeper(script: &str) -> (Child, u32) {
        let mut child = spawn(
            Command::new("sh")
                .args(["-c", script])
                .stdin(Stdio::null())
                .stdout(Stdio::piped()),
        )
        .expect("sh starts");
        let mut line = String::new();
        let mut out = std::io::BufReader::new(child.stdout.take().expect("piped"));
        std::io::BufRead::read_line(&mut out, &mut line).expect("a pid");
        (child, line.trim().parse().expect("a pid"))
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn ending_a_child_ends_its_grandchildren() {
        let (mut child, grandchild) = sleeper("sleep 30 & echo $!; wait");
        assert!(alive(grandchild));
        let status = end(&mut child).expect("a status");
        assert!(!status.success());
        let start = Instant::now();
        while alive(grandchild) && start.elapsed() < Duration::from_secs(5) {
            std::thread::sleep(Duration::from_millis(10));
        }
        assert!(!alive(grandchild), "the grandchild outlived its group");
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_child_that_exits_leaves_nothing_behind() {
        let (mut child, grandchild) = sleeper("sleep 30 >/dev/null & echo $!; exit 3");
        let status = wait(
            &mut child,
            Duration::from_secs(10),
            Duration::from_millis(1),
        )
        .expect("exits");
        assert_eq!(status.code(), Some(3));
        let start = Instant::now();
        while alive(grandchild) && start.elapsed() < Duration::from_secs(5) {
            std::thread::sleep(Duration::from_millis(10));
        }
        assert!(
            !alive(grandchild),
            "a leftover of an exited child still runs"
        );
    }

    #[test]
    fn waiting_in_vain_leaves_the_child_running() {
        let (mut child, _) = sleeper("echo 0; sleep 30");
        assert!(
            wait(
                &mut child,
                Duration::from_millis(50),
                Duration::from_millis(5)
            )
            .is_none()
        );
        assert!(!exited(&mut child));
        end(&mut child);
        assert!(exited(&mut child) || child.try_wait().is_ok());
    }
}
