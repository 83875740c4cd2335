// engine/util/thread_annotations.h
//
// Clang's thread-safety analysis attributes (-Wthread-safety), under the
// names abseil and leveldb use. They state which mutex guards a member
// (GUARDED_BY) and which a function needs held (REQUIRES), and clang checks
// every access at compile time; other compilers see nothing. Use them with
// util/mutex.h's Mutex and SharedMutex: libstdc++'s std::mutex carries no
// annotations, so clang cannot see it taken.

#ifndef DYNAROCK_ENGINE_UTIL_THREAD_ANNOTATIONS_H_
#define DYNAROCK_ENGINE_UTIL_THREAD_ANNOTATIONS_H_

#if defined(__clang__)
#define DR_THREAD_ANNOTATION(x) __attribute__((x))
#else
#define DR_THREAD_ANNOTATION(x)
#endif

#define CAPABILITY(x) DR_THREAD_ANNOTATION(capability(x))
#define SCOPED_CAPABILITY DR_THREAD_ANNOTATION(scoped_lockable)
#define GUARDED_BY(x) DR_THREAD_ANNOTATION(guarded_by(x))
#define PT_GUARDED_BY(x) DR_THREAD_ANNOTATION(pt_guarded_by(x))
#define ACQUIRED_AFTER(...) DR_THREAD_ANNOTATION(acquired_after(__VA_ARGS__))
#define REQUIRES(...) DR_THREAD_ANNOTATION(requires_capability(__VA_ARGS__))
#define REQUIRES_SHARED(...) \
  DR_THREAD_ANNOTATION(requires_shared_capability(__VA_ARGS__))
#define ACQUIRE(...) DR_THREAD_ANNOTATION(acquire_capability(__VA_ARGS__))
#define ACQUIRE_SHARED(...) \
  DR_THREAD_ANNOTATION(acquire_shared_capability(__VA_ARGS__))
#define RELEASE(...) DR_THREAD_ANNOTATION(release_capability(__VA_ARGS__))
#define RELEASE_SHARED(...) \
  DR_THREAD_ANNOTATION(release_shared_capability(__VA_ARGS__))
#define RELEASE_GENERIC(...) \
  DR_THREAD_ANNOTATION(release_generic_capability(__VA_ARGS__))
#define TRY_ACQUIRE(...) DR_THREAD_ANNOTATION(try_acquire_capability(__VA_ARGS__))
#define EXCLUDES(...) DR_THREAD_ANNOTATION(locks_excluded(__VA_ARGS__))
#define NO_THREAD_SAFETY_ANALYSIS DR_THREAD_ANNOTATION(no_thread_safety_analysis)

#endif  // DYNAROCK_ENGINE_UTIL_THREAD_ANNOTATIONS_H_
