//! [`section_layer!`]: declares what one source says of a settings section, a struct whose
//! fields are all optional (`None` leaves the decision to lower sources), with the `over`
//! method that stacks two of them and the `said` method that names the keys it says. Every
//! section (`[browser]`, `[polling]`, `[llm]`, `[budgets]`, `[run]`) declares its layer with it,
//! so the stacking is written once.

/// Declares `struct $name` with each field wrapped in `Option`, deriving `Debug` and `Default`,
/// `$name::over(self, lower)`: `self` where it says something, `lower` elsewhere, and
/// `$name::said(&self)`: the names of the fields that say something.
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

            /// The names of the keys this source says something of, in declaration order.
            #[allow(dead_code, reason = "not every layer's keys have a source to name")]
            pub(super) fn said(&self) -> Vec<&'static str> {
                let mut said = Vec::new();
                $(if self.$field.is_some() {
                    said.push(stringify!($field));
                })*
                said
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
        assert_eq!(upper.said(), ["a"]);
        assert_eq!(lower.said(), ["a", "b"]);
        let stacked = upper.over(lower);
        assert_eq!(stacked.a, Some(1));
        assert_eq!(stacked.b.as_deref(), Some("lower"));
        let empty = Sample::default().over(Sample::default());
        assert!(empty.said().is_empty());
        assert_eq!((empty.a, empty.b), (None, None));
    }
}
