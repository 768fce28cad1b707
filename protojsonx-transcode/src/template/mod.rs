//! Path templates of `google.api.http` rules: parsing and matching.
