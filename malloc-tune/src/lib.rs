//! Keeps a server fast and its memory near what it uses rather than what it once needed.
//!
//! The server allocates through mimalloc ([`Allocator`]), which a binary declares as its
//! global allocator. With glibc's allocator, capped at two arenas to keep memory down, a dozen
//! threads (the runtime's, SQLite's workers, the search index's) queued for the arenas' locks,
//! and glibc consolidated and trimmed its heap on frees: a fifth of the server's time. With
//! mimalloc's thread-local heaps, an editor's page view went from about 5,000 to 12,000
//! requests per second on two cores, and the document GET from about 20,000 to 28,000.
//!
//! mimalloc by default commits its arenas eagerly and hands freed pages back after a delay;
//! that left a seeded site at 104 MB, against 46 MB with glibc. Committing on demand and
//! handing back at once brings it to 47–49 MB at the same speed within the runs' noise, and
//! without transparent huge pages the server ends `bench/run` at 60 MB rather than 62.
//!
//! glibc's allocator still serves the C libraries (SQLite), so it is tuned too: it raises its
//! mmap threshold each time a large block is freed (up to 32 MB), after which every allocation
//! below that size comes from the heap arenas, which hand nothing back while anything above it
//! lives; one arena per thread multiplies that.

/// The global allocator a server binary declares:
/// `#[global_allocator] static ALLOCATOR: Allocator = Allocator;`.
pub use mimalloc::MiMalloc as Allocator;

/// mimalloc's option numbers (its `mi_option_e`, version 3), which the bindings do not name.
const MI_OPTION_ARENA_EAGER_COMMIT: libmimalloc_sys::mi_option_t = 4;
const MI_OPTION_PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;
const MI_OPTION_ALLOW_THP: libmimalloc_sys::mi_option_t = 43;

/// Sets mimalloc's parameters before anything allocates: the first arena is made by the
/// first allocation, before `main`, and keeps the commit policy it was made with. On Linux
/// this runs from `.init_array`, with the C library's other constructors; elsewhere from
/// [`tune`]. An operator's own `MIMALLOC_…` environment variable wins over the value set here.
extern "C" fn tune_mimalloc() {
    for (option, variable, value) in [
        (MI_OPTION_ARENA_EAGER_COMMIT, c"MIMALLOC_ARENA_EAGER_COMMIT", 0),
        (MI_OPTION_PURGE_DELAY, c"MIMALLOC_PURGE_DELAY", 0),
        // With transparent huge pages allowed, mimalloc hands back only whole 2 MiB spans.
        (MI_OPTION_ALLOW_THP, c"MIMALLOC_ALLOW_THP", 0),
    ] {
        // SAFETY: getenv reads the environment the C library set up before any constructor,
        // with a valid C string; unlike `std::env`, it allocates nothing, which would make the
        // first arena before its option is set. mi_option_set only stores an option's value;
        // any value is accepted, and mimalloc reads it when it next needs the option.
        #[allow(unsafe_code)]
        unsafe {
            if libc::getenv(variable.as_ptr()).is_null() {
                libmimalloc_sys::mi_option_set(option, value);
            }
        }
    }
}

// SAFETY: the function takes no arguments, touches nothing but mimalloc's options and the
// environment (which the C library has set up before any constructor runs), and cannot unwind.
#[cfg(target_os = "linux")]
#[allow(unsafe_code)]
#[used]
#[unsafe(link_section = ".init_array")]
static TUNE_MIMALLOC_FIRST: extern "C" fn() = tune_mimalloc;

/// Sets the allocators' parameters; call it first thing in `main`, before any thread starts.
pub fn tune() {
    #[cfg(not(target_os = "linux"))]
    tune_mimalloc();
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        /// glibc's own default; set explicitly, it is no longer raised on the fly.
        const MMAP_THRESHOLD: libc::c_int = 128 * 1024;
        /// Two arenas left the server at 46 MB after the benchmark instead of 51 MB, at the
        /// same speed within the runs' noise (2 cores), when glibc still served everything.
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

#[cfg(test)]
mod tests {
    use super::{MI_OPTION_ALLOW_THP, MI_OPTION_ARENA_EAGER_COMMIT, MI_OPTION_PURGE_DELAY};

    #[test]
    fn mimalloc_commits_on_demand_and_hands_back_at_once_from_the_start() {
        // SAFETY: mi_option_get only reads an option's value.
        #[allow(unsafe_code)]
        let values = unsafe {
            [
                libmimalloc_sys::mi_option_get(MI_OPTION_ARENA_EAGER_COMMIT),
                libmimalloc_sys::mi_option_get(MI_OPTION_PURGE_DELAY),
                libmimalloc_sys::mi_option_get(MI_OPTION_ALLOW_THP),
            ]
        };
        // Their defaults are 2, 10 and 1; the constructor ran before the test harness's first
        // allocation, without anyone calling `tune`.
        assert_eq!(values, [0, 0, 0]);
    }
}
