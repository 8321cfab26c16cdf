//! [`section_layer!`]: declares what one source says of a settings section, a struct whose
//! fields are all optional (`None` leaves the decision to lower sources), with the `over`
//! method that stacks two of them. Every section (`[browser]`, `[polling]`, `[llm]`,
//! `[budgets]`, `[run]`) declares its layer with it, so the stacking is written once.

/// Declares `struct $name` with each field wrapped in `Option`, deriving `Debug` and `Default`,
/// and `$name::over(self, lower)`: `self` where it says something, `lower` elsewhere.
macro_rules! section_layer {
    (
        $(#[$meta:meta])*
        $name:ident {
            $($(#[$field_meta:meta])* $field:ident: $ty:ty,)*
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Default)]
        pub(super) struct $name {
            $($(#[$field_meta])* $field: Option<$ty>,)*
        }

        impl $name {
            /// `self` where it says something, `lower` elsewhere.
            pub(super) fn over(self, lower: $name) -> $name {
                $name {
                    $($field: self.$field.or(lower.$field),)*
                }
            }
        }
    };
}

pub(super) use section_layer;

#[cfg(test)]
mod tests {
    section_layer! {
        /// A layer of two keys.
        Sample {
            a: u32,
            b: String,
        }
    }

    #[test]
    fn over_takes_each_key_from_the_upper_layer_where_it_says_something() {
        let upper = Sample {
            a: Some(1),
            b: None,
        };
        let lower = Sample {
            a: Some(2),
            b: Some("lower".into()),
        };
        let stacked = upper.over(lower);
        assert_eq!(stacked.a, Some(1));
        assert_eq!(stacked.b.as_deref(), Some("lower"));
        let empty = Sample::default().over(Sample::default());
        assert_eq!((empty.a, empty.b), (None, None));
    }
}
