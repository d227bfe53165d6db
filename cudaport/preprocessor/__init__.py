"""What the preprocessor decides before any name is read: which ``#if`` branch each
offset stands in, and which of them a build for the target compiles."""
