//! `#[derive(shoal::Element)]`: a struct laid out by WGSL's rules (encase's layout) that also
//! records each field's name, byte offset, size and type, so that binding a buffer of it checks
//! the struct against the kernel's WGSL struct member by member (`shoal::Element::FIELDS`).
//!
//! The derive writes a twin of the struct (same fields, same types) that derives encase's
//! `ShaderType` through `shoal::encase`, and implements `shoal::Element` for the struct by
//! converting to and from the twin. The struct itself does not implement `ShaderType`: Shoal
//! implements `Element` for every `ShaderType`, and one type has one `Element` implementation.

use encase_derive_impl::syn::{self, Data, DeriveInput, Fields, parse_macro_input};
use proc_macro2::TokenStream;
use quote::{format_ident, quote};

/// Implements `shoal::Element` for a struct with named fields: laid out as WGSL lays out a
/// struct of the same members, and checked field by field against the WGSL struct it is bound
/// to (see `shoal::Element` and docs/errors.md, `StructField`).
#[proc_macro_derive(Element)]
pub fn derive_element(input: proc_macro::TokenStream) -> proc_macro::TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    expand(&input)
        .unwrap_or_else(|e| e.to_compile_error())
        .into()
}

fn expand(input: &DeriveInput) -> syn::Result<TokenStream> {
    let name = &input.ident;
    if !input.generics.params.is_empty() {
        return Err(syn::Error::new_spanned(
            &input.generics,
            "#[derive(shoal::Element)]: a struct with generic parameters has no single WGSL \
             layout; write one struct per element type",
        ));
    }
    let fields = match &input.data {
        Data::Struct(s) => match &s.fields {
            Fields::Named(named) if !named.named.is_empty() => &named.named,
            _ => {
                return Err(syn::Error::new_spanned(
                    name,
                    "#[derive(shoal::Element)]: a struct with named fields, as a WGSL struct \
                     has named members",
                ));
            }
        },
        _ => {
            return Err(syn::Error::new_spanned(
                name,
                "#[derive(shoal::Element)]: only structs have a WGSL struct to match",
            ));
        }
    };
    let names: Vec<_> = fields.iter().filter_map(|f| f.ident.clone()).collect();
    let types: Vec<_> = fields.iter().map(|f| f.ty.clone()).collect();
    let twin = format_ident!("__ShoalTwinOf{}", name);
    let twin_input: DeriveInput = syn::parse_quote! {
        struct #twin { #(#names: #types,)* }
    };
    let layout = encase_derive_impl::derive_shader_type(
        twin_input.clone(),
        &syn::parse_quote!(::shoal::encase),
    );
    let indices = 0..names.len();
    let name_strings = names.iter().map(|n| n.to_string());
    Ok(quote! {
        const _: () = {
            #twin_input
            #layout
            #[automatically_derived]
            impl ::shoal::Element for #name {
                const STRIDE: u64 = <#twin as ::shoal::Element>::STRIDE;
                const SIZE: u64 = <#twin as ::shoal::Element>::SIZE;
                const LAYOUT: ::shoal::LayoutKind = ::shoal::LayoutKind::Wgsl;
                const FIELDS: &'static [::shoal::ElementField] = &[#(
                    ::shoal::ElementField {
                        name: #name_strings,
                        offset: <#twin as ::shoal::encase::ShaderType>::METADATA.offset(#indices),
                        size: <#types as ::shoal::encase::ShaderSize>::SHADER_SIZE.get(),
                        type_name: ::core::any::type_name::<#types>,
                    },
                )*];
                fn encode(items: &[Self], out: &mut ::std::vec::Vec<u8>) -> ::shoal::Result<()> {
                    let twins: ::std::vec::Vec<#twin> = items
                        .iter()
                        .map(|item| #twin { #(#names: ::core::clone::Clone::clone(&item.#names),)* })
                        .collect();
                    <#twin as ::shoal::Element>::encode(&twins, out)
                        .map_err(::shoal::__private::renamed::<Self>)
                }
                fn decode(bytes: &[u8]) -> ::shoal::Result<::std::vec::Vec<Self>> {
                    ::core::result::Result::Ok(
                        <#twin as ::shoal::Element>::decode(bytes)
                            .map_err(::shoal::__private::renamed::<Self>)?
                            .into_iter()
                            .map(|twin| #name { #(#names: twin.#names,)* })
                            .collect(),
                    )
                }
            }
        };
    })
}
