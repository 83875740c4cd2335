// Builds tests/testutil/test_pch.h into the precompiled header that every
// test file reuses; the object itself is empty.
