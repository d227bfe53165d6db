"""Running a request over many files: file kinds, the driver, check and verify."""
