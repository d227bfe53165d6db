"""Running the pipeline over many files: ``plan`` (what takes part, where outputs go),
``cache`` (the incremental cache), ``io`` (the one atomic writer), ``git`` (--in-place
checks); :mod:`cudaport.run.driver` runs the planned jobs in a pool."""
