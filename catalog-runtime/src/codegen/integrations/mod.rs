//! Trait impls for generated enums that depend on optional features:
//! `serde` ([`serde_support`]) and `miette` ([`miette_support`]).
//!
//! Generated code always invokes the hidden `integrations!` macro. The
//! macro is defined here, in the runtime, so it expands to the impls only
//! when the runtime was built with the feature: the user's crate compiles
//! whether or not the feature is on, and needs no `cfg` of its own (a `cfg`
//! in generated code would test the user's features, not ours).

#[cfg(feature = "miette")]
pub mod miette_support;
#[cfg(feature = "serde")]
pub mod serde_support;

/// The impls for one generated enum and its kind enum.
#[doc(hidden)]
#[macro_export]
macro_rules! __catalog_integrations {
    ($error:ty, $kind:ty) => {
        $crate::__catalog_serde!($error, $kind);
        $crate::__catalog_miette!($error);
    };
}

#[cfg(feature = "serde")]
#[doc(hidden)]
#[macro_export]
macro_rules! __catalog_serde {
    ($error:ty, $kind:ty) => {
        #[automatically_derived]
        impl $crate::__private_0_1::serde::Serialize for $error {
            fn serialize<S: $crate::__private_0_1::serde::Serializer>(
                &self,
                serializer: S,
            ) -> ::core::result::Result<S::Ok, S::Error> {
                $crate::__private_0_1::serde_support::serialize(self, serializer)
            }
        }

        #[automatically_derived]
        impl<'de> $crate::__private_0_1::serde::Deserialize<'de> for $error {
            fn deserialize<D: $crate::__private_0_1::serde::Deserializer<'de>>(
                deserializer: D,
            ) -> ::core::result::Result<Self, D::Error> {
                let lookups = $crate::__private_0_1::serde_support::Lookups {
                    by_id: |id| <$kind>::from_id(id).map(<$kind>::index),
                    by_slug: |slug| <$kind>::from_slug(slug).map(<$kind>::index),
                };
                $crate::__private_0_1::serde_support::deserialize(deserializer, lookups)
            }
        }

        #[automatically_derived]
        impl $crate::__private_0_1::serde::Serialize for $kind {
            fn serialize<S: $crate::__private_0_1::serde::Serializer>(
                &self,
                serializer: S,
            ) -> ::core::result::Result<S::Ok, S::Error> {
                serializer.serialize_str(self.id())
            }
        }

        #[automatically_derived]
        impl<'de> $crate::__private_0_1::serde::Deserialize<'de> for $kind {
            fn deserialize<D: $crate::__private_0_1::serde::Deserializer<'de>>(
                deserializer: D,
            ) -> ::core::result::Result<Self, D::Error> {
                $crate::__private_0_1::serde_support::deserialize_kind(deserializer)
            }
        }
    };
}

#[cfg(not(feature = "serde"))]
#[doc(hidden)]
#[macro_export]
macro_rules! __catalog_serde {
    ($($any:tt)*) => {};
}

#[cfg(feature = "miette")]
#[doc(hidden)]
#[macro_export]
macro_rules! __catalog_miette {
    ($error:ty) => {
        #[automatically_derived]
        impl $crate::__private_0_1::miette::Diagnostic for $error {
            fn code<'a>(&'a self) -> ::core::option::Option<::std::boxed::Box<dyn ::core::fmt::Display + 'a>> {
                $crate::__private_0_1::miette_support::code(self)
            }
            fn severity(&self) -> ::core::option::Option<$crate::__private_0_1::miette::Severity> {
                $crate::__private_0_1::miette_support::severity(self)
            }
            fn help<'a>(&'a self) -> ::core::option::Option<::std::boxed::Box<dyn ::core::fmt::Display + 'a>> {
                $crate::__private_0_1::miette_support::help(self)
            }
            fn url<'a>(&'a self) -> ::core::option::Option<::std::boxed::Box<dyn ::core::fmt::Display + 'a>> {
                $crate::__private_0_1::miette_support::url(self)
            }
        }
    };
}

#[cfg(not(feature = "miette"))]
#[doc(hidden)]
#[macro_export]
macro_rules! __catalog_miette {
    ($($any:tt)*) => {};
}
