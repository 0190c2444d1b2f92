//! Keeps a server's memory near what it uses rather than what it once needed.
//!
//! glibc raises its mmap threshold each time a large block is freed (up to 32 MB). After the
//! first password hash (argon2 takes 19 MB) every allocation below that size comes from the
//! heap arenas, which hand nothing back while anything above it lives; one arena per thread
//! multiplies that. A seeded site then sat at 140 MB of anonymous memory after seeding; with
//! the threshold fixed at 128 KB and two arenas it is 13 MB.

/// Sets the allocator's parameters; call it first thing in `main`, before any thread starts.
/// Does nothing on other C libraries.
pub fn tune() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        /// glibc's own default; set explicitly, it is no longer raised on the fly.
        const MMAP_THRESHOLD: libc::c_int = 128 * 1024;
        /// Two arenas left the server at 46 MB after the benchmark instead of 51 MB, at the
        /// same speed within the runs' noise (2 cores).
        const ARENA_MAX: libc::c_int = 2;
        // SAFETY: mallopt only changes allocator parameters; glibc accepts it at any time and
        // reports a refused value by returning 0, which leaves the default in place.
        #[allow(unsafe_code)]
        unsafe {
            libc::mallopt(libc::M_MMAP_THRESHOLD, MMAP_THRESHOLD);
            libc::mallopt(libc::M_ARENA_MAX, ARENA_MAX);
        }
    }
}
